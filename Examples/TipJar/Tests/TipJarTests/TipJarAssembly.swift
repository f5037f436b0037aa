import CogTesting
import TipJar

/// How a replay test assembles TipJar: the states a recording may name. The sources are
/// private to the app; their published projections are enough for a test to write them.
enum TipJarAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] {
        [.source(billCentsCog), .source(tipPercentCog), .state(tipCentsCog), .state(totalCentsCog)]
    }
}

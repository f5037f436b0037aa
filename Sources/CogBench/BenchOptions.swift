import CogCommandLine
import CogTraceFixtures

/// The command line of `cog-bench`.
struct BenchOptions {
    static let usage = """
        usage: cog-bench [--smoke] [--iterations N] [--json FILE] [--sections LIST] [--sizes LIST]

          --smoke          a few iterations of every section; checks counts, for CI
          --iterations N   iterations per scenario (default 31)
          --json FILE      also write the measurements as JSON (schema: docs/performance.md);
                           an existing FILE is kept without --force
          --variants LIST  which runtime variants to time besides untraced: ring, stream and
                           null (a probe that drops every event: what building the events costs); default all three
          --shapes LIST    only the shapes whose names contain one of these words, e.g. cellx,diamond
                           (runtime, client and recorder sections)
          --sections LIST  which sections to run: runtime, client, scenario, counts, recorder,
                           inspector, replay, soak, follow, bigtrace, fleet, widegraph (default all but
                           the last five); client builds each shape's declarations inside every timed run,
                           on the production clock and on Cogs.forTesting(); scenario writes the
                           shapes as the public library's comparison scenarios do (closure-first
                           forms, UI reads, a named turn per write) on Cogs.forTesting(); counts checks each client
                           run's exact allocations and selector runs against the committed
                           ones (docs/performance.md); follow writes a synthetic trace at a fixed rate while
                           coginspect --follow watches it, and measures the lag; widegraph
                           measures commands and exports on the wide trace (--wide-*)
          --follow-seconds N  how long follow writes (default 60)
          --follow-rate N  turns per second follow writes (default 10000)
          --soak-turns N   turns in the soak (default 10000000)
          --huge-turns N   turns in the trace bigtrace opens for its peak memory (default
                           8000000, about 4 GB; bigtrace times the rest at the largest --sizes)
          --sizes LIST     turns in the inspector's synthetic traces (default 100000,1000000)
          --write-synthetic FILE
                           write the synthetic trace of the first size to FILE and exit, to try
                           the inspector on a big trace (an existing FILE is kept without --force)
          --wide           with --write-synthetic, write the wide trace widegraph measures instead
          --wide-states N  states in the wide trace, all in keyed families (default 10000)
          --wide-keys A-B  keys per family: the first family has B, the others vary from A to B
                           (default 100-2000)
          --wide-edges N   edges per state, on average (default 5)
          --wide-turns N   turns in the wide trace (default 10000)
          --force          with --json or --write-synthetic, replace FILE if it exists
          -h, --help       show this help
          --version        show the version

        exit status: 0 success, 1 a selector count differs from its formula, an exact count
        differs from the committed one, or an output file exists, 64 usage
        """

    static let sectionNames = [
        "runtime", "client", "scenario", "counts", "recorder", "inspector", "replay", "soak", "follow", "bigtrace",
        "fleet", "widegraph",
    ]
    static let variantNames = ["ring", "stream", "null"]

    var smoke = false
    var iterations = 31
    var jsonPath: String?
    var variants: Set<String> = Set(variantNames)
    /// Words naming the shapes to run; empty runs all.
    var shapes: [String] = []
    var sections: Set<String> = ["runtime", "client", "scenario", "counts", "recorder", "inspector", "replay"]
    var soakTurns = 10_000_000
    var hugeTurns = 8_000_000
    var followSeconds = 60
    var followRate = 10_000
    var sizes = [100_000, 1_000_000]
    /// Where `--write-synthetic` writes the trace; nil measures instead.
    var syntheticPath: String?
    /// Whether `--write-synthetic` writes the wide trace.
    var wide = false
    /// The wide trace's make-up (`--wide-*`).
    var wideShape = SyntheticWideTrace.Shape()
    var force = false
    var showHelp = false
    var showVersion = false

    init(arguments: [String]) throws(UsageError) {
        var words = ArgumentList(arguments)
        var sectionsChosen = false
        while let word = words.next() {
            switch word {
            case "--smoke": smoke = true
            case "-h", "--help": showHelp = true
            case "--version": showVersion = true
            case "--iterations": iterations = try words.positiveCount(after: word)
            case "--variants":
                variants = Set(try words.list(after: word, example: "ring,stream", allowed: Self.variantNames))
            case "--shapes": shapes = try words.list(after: word, example: "cellx,diamond")
            case "--sections":
                sections = Set(try words.list(after: word, example: "runtime,recorder", allowed: Self.sectionNames))
                sectionsChosen = true
            case "--soak-turns": soakTurns = try words.positiveCount(after: word)
            case "--follow-seconds": followSeconds = try words.positiveCount(after: word)
            case "--huge-turns": hugeTurns = try words.positiveCount(after: word)
            case "--follow-rate": followRate = try words.positiveCount(after: word)
            case "--sizes":
                let listed = try words.list(after: word, example: "100000,1000000")
                let parsed = listed.compactMap { Int($0) }.filter { $0 >= 3 }
                guard parsed.count == listed.count else {
                    throw UsageError(
                        "--sizes needs whole numbers of at least 3, not '\(listed.joined(separator: ","))'")
                }
                sizes = parsed
            case "--json": jsonPath = try words.value(after: word, expected: "a file path")
            case "--write-synthetic": syntheticPath = try words.value(after: word, expected: "a file path")
            case "--force": force = true
            case "--wide": wide = true
            case "--wide-states": wideShape.states = try words.positiveCount(after: word)
            case "--wide-edges": wideShape.edgesPerState = try words.positiveCount(after: word)
            case "--wide-turns": wideShape.turns = try words.positiveCount(after: word)
            case "--wide-keys":
                let text = try words.value(after: word, expected: "a range of keys per family, e.g. 100-2000")
                let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                guard bounds.count == 2, let low = bounds[0], let high = bounds[1], low >= 1, low <= high else {
                    throw UsageError("--wide-keys needs A-B with 1 <= A <= B, e.g. 100-2000, not '\(text)'")
                }
                wideShape.keysPerFamily = low...high
            default: throw UsageError("unknown option '\(word)'")
            }
        }
        for word in shapes where !runtimeShapeNames.contains(where: { $0.contains(word) }) {
            throw UsageError(
                "no shape's name contains '\(word)' for --shapes; the shapes are "
                    + runtimeShapeNames.joined(separator: ", "))
        }
        // `--smoke` alone runs every section, the soak included.
        if smoke, !sectionsChosen { sections.insert("soak") }
    }
}

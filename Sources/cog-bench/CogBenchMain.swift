import CogBench
import Foundation

/// `cog-bench`: the benchmarks' command line; everything it does lives in `CogBench`.
@main
struct CogBenchMain {
    static func main() {
        exit(CogBenchCommand.run(Array(CommandLine.arguments.dropFirst())).rawValue)
    }
}

import CAllocationCounter
import CogBench
import CogCommandLine
import Foundation

/// `cog-bench`: the benchmarks' command line; everything it does lives in `CogBench`. The
/// executable adds only the allocation counter, which must not be linked into the tests.
@main
struct CogBenchMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        exit(await CogBenchCommand.run(arguments, allocationCount: { cog_allocation_count() }).rawValue)
    }
}

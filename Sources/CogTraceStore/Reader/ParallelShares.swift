import CogTraceFormat
import Foundation

/// Work over a range of turns split into one contiguous share per core, run on all of them at
/// once: how the reader decodes, scans and indexes a batch of turns. The results come back in
/// share order, so a caller that concatenates them keeps the turns in order.
enum ParallelShares {
    /// How many shares a batch is split into: the cores, at most 8.
    static var count: Int { min(ProcessInfo.processInfo.activeProcessorCount, 8) }

    /// Runs `work` on each share of `positions` at once; the results in share order (an empty
    /// share gets none). With `sharesPerCore` above 1 the range is cut finer, so a core that
    /// finishes early (or another process slowed its neighbour) takes the next share instead of
    /// waiting for the slowest one.
    static func map<Result>(
        _ positions: Range<Int>, sharesPerCore: Int = 1, _ work: @Sendable (Range<Int>) -> Result
    ) -> [Result] {
        let shares = count * max(sharesPerCore, 1)
        let size = (positions.count + shares - 1) / shares
        var results = [Result?](repeating: nil, count: shares)
        results.withUnsafeMutableBufferPointer { buffer in
            let slots = SharedMutableBuffer(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: shares) { share in
                let lower = positions.lowerBound + share * size
                let upper = min(lower + size, positions.upperBound)
                guard lower < upper else { return }
                slots.buffer[share] = work(lower..<upper)
            }
        }
        return results.compactMap { $0 }
    }

    /// The results of `work` over every share of `positions`, in order: on one core when there
    /// are fewer than `serialBelow` positions, for which starting the others costs more.
    static func flatMap<Element>(
        _ positions: Range<Int>, serialBelow: Int, _ work: @Sendable (Range<Int>) -> [Element]
    ) -> [Element] {
        positions.count < serialBelow ? work(positions) : map(positions, work).flatMap { $0 }
    }

}

/// A buffer shared with the workers of one `ParallelShares` call that fill it: the result slots
/// of `map`, or the bytes a file is read into.
///
/// Sendable by hand, and sound only as its users use it: each worker writes only the part of its
/// own share, nothing is read until every worker has returned (`concurrentPerform` waits for
/// them), and the buffer outlives the call.
struct SharedMutableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
}

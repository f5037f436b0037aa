import CogTraceFormat
import Foundation

/// The sidecar index of a big trace: where each turn's record lies and which lines hold
/// everything else, so reopening reads those few lines again and none of the turns. It is never
/// required and never trusted blindly: it names how many bytes of the trace it covers (whole
/// lines), a checksum of the first line and one of every byte it covers (`TraceChecksum`,
/// verified on another core while the index is decoded), and a checksum of its own body; an
/// index that disagrees with the trace or with itself is rebuilt. A trace
/// still being written may have grown past what its index covers: the index then serves for
/// its part and the rest is read, so a followed trace's index is extended, not rebuilt.
///
/// Layout (integers as LEB128 varints, signed ones zigzagged, strings length-prefixed UTF-8):
/// the magic line, the format version, the trace's size and two checksums, then the body —
/// the lines read and the offset read to, the record lines `(line, start, end)`, the leading
/// idle record, the turn entries as differences from the one before, the warnings and the
/// missing turns — and last the body's checksum as eight bytes.
package enum TraceIndexFile {
    /// The first bytes of every index.
    static let magic = Array("cogtrace-index\n".utf8)
    /// The layout version this reader writes and reads; another is rebuilt.
    static let version: UInt64 = 2
    /// How many turns are decoded between two progress reports.
    static let progressStep = 1 << 16
    /// Why an index was not used.
    package enum Problem: Error, CustomStringConvertible, Equatable {
        /// Written for another trace, or for this one before it changed.
        case stale
        /// Cut short, altered or not an index at all.
        case corrupt
        /// Written by another version of the reader.
        case otherVersion

        package var description: String {
            switch self {
            case .stale: "it was written for another version of the trace"
            case .corrupt: "it is damaged"
            case .otherVersion: "it was written by another version of coginspect"
            }
        }
    }

    /// The index's bytes for the lines of `bytes` read into `contents` (up to `readOffset`).
    static func encode(_ contents: TraceContents, of bytes: TraceBytes) -> [UInt8] {
        let covered = min(contents.readOffset, bytes.count)
        var body = IndexEncoder()
        body.unsigned(contents.lineNumber)
        body.unsigned(covered)
        body.unsigned(contents.recordLines.count)
        var previousLine = 0
        var previousEnd = 0
        for record in contents.recordLines {
            body.signed(record.line - previousLine)
            body.signed(record.range.lowerBound - previousEnd)
            body.unsigned(record.range.count)
            previousLine = record.line
            previousEnd = record.range.upperBound
        }
        if let idle = contents.leadingIdle {
            body.unsigned(1)
            body.unsigned(idle.line)
            body.unsigned(idle.range.lowerBound)
            body.unsigned(idle.range.count)
        } else {
            body.unsigned(0)
        }
        body.unsigned(contents.entries.count)
        var previousSequence = 0
        previousLine = 0
        previousEnd = 0
        for entry in contents.entries {
            body.signed(entry.sequence.rawValue - previousSequence)
            body.signed(entry.line - previousLine)
            body.signed(entry.range.lowerBound - previousEnd)
            body.unsigned(entry.range.count)
            previousSequence = entry.sequence.rawValue
            previousLine = entry.line
            previousEnd = entry.range.upperBound
            if let idle = entry.idle {
                body.unsigned(1 + idle.line - entry.line)
                body.signed(idle.range.lowerBound - previousEnd)
                body.unsigned(idle.range.count)
                previousEnd = idle.range.upperBound
            } else {
                body.unsigned(0)
            }
        }
        // What is said of the file's end belongs to the read that finds it, not to the index.
        let warnings = contents.warnings.filter { !TraceContents.isEndWarning($0) }
        body.unsigned(warnings.count)
        for warning in warnings {
            body.unsigned(warning.line)
            body.string(warning.message)
        }
        body.unsigned(contents.missingTurns.count)
        for gap in contents.missingTurns {
            body.unsigned(gap.first.rawValue)
            body.unsigned(gap.last.rawValue)
            body.unsigned(gap.line)
        }
        var file = IndexEncoder()
        file.bytes = magic
        file.unsigned(Int(version))
        file.unsigned(covered)
        file.bytes += withUnsafeBytes(of: headChecksum(of: bytes, covering: covered).littleEndian, Array.init)
        file.bytes += withUnsafeBytes(of: TraceChecksum.of(bytes, covering: covered).littleEndian, Array.init)
        file.bytes += body.bytes
        file.bytes += withUnsafeBytes(of: checksum(body.bytes[...]).littleEndian, Array.init)
        return file.bytes
    }

    /// What the index says of the trace, read into contents as a read of the bytes it covers
    /// would have left them (`readOffset` is where the index ends: the whole trace, or a part
    /// of one that grew since); the record lines are read again from the trace.
    /// - Throws: `Problem` when the index is not this trace's or not whole; a `TraceReadError`
    ///   from a record line is reported as `.corrupt` (a full read then says what is wrong).
    /// - Parameter progress: told how far the reading is, as a load's progress (`loadingTask`):
    ///   a big trace's index holds millions of turns.
    static func decode(
        _ index: [UInt8], of bytes: TraceBytes, memoryBudget: MemoryBudget,
        progress: ((TraceProgress) -> Void)? = nil
    ) throws(Problem) -> TraceContents {
        guard index.starts(with: magic) else { throw .corrupt }
        var file = IndexDecoder(bytes: index[magic.count...])
        guard try file.unsigned() == Int(version) else { throw .otherVersion }
        let covered = try file.unsigned()
        guard covered <= bytes.count else { throw .stale }
        guard try file.word() == headChecksum(of: bytes, covering: covered) else { throw .stale }
        let expectedChecksum = try file.word()
        // Every byte covered is verified on other cores while this one decodes the index.
        let verification = TraceChecksum.Background(bytes, covering: covered)
        defer { verification.wait() }
        guard index.count - file.offset >= 8 else { throw .corrupt }
        let body = index[file.offset..<(index.count - 8)]
        var trailing = IndexDecoder(bytes: index[(index.count - 8)...])
        guard try trailing.word() == checksum(body) else { throw .corrupt }
        var reader = IndexDecoder(bytes: body)
        var contents = TraceContents()
        let lineCount = try reader.unsigned()
        guard try reader.unsigned() == covered else { throw .corrupt }
        let recordCount = try reader.count(atMost: lineCount)
        var line = 0
        var end = 0
        var records: [(line: Int, range: Range<Int>)] = []
        records.reserveCapacity(recordCount)
        for _ in 0..<recordCount {
            line += try reader.signed()
            let start = end + (try reader.signed())
            end = try IndexDecoder.range(from: start, length: try reader.unsigned(), within: covered).upperBound
            records.append((line, start..<end))
        }
        if try reader.unsigned() == 1 {
            let idleLine = try reader.unsigned()
            let start = try reader.unsigned()
            contents.leadingIdle = (
                idleLine, try IndexDecoder.range(from: start, length: try reader.unsigned(), within: covered)
            )
        }
        let entryCount = try reader.count(atMost: lineCount)
        // Turns and record lines are the steps; a report every so many of them.
        let steps = entryCount + records.count
        func report(_ done: Int) {
            progress?(TraceProgress(task: TraceFile.loadingTask, completed: done, total: max(steps, 1)))
        }
        contents.entries.reserveCapacity(entryCount)
        contents.sequences.reserveCapacity(entryCount)
        var sequence = 0
        line = 0
        end = 0
        for position in 0..<entryCount {
            if position % Self.progressStep == 0 { report(position) }
            sequence += try reader.signed()
            line += try reader.signed()
            let start = end + (try reader.signed())
            let range = try IndexDecoder.range(from: start, length: try reader.unsigned(), within: covered)
            end = range.upperBound
            guard TraceScanner.validCounts.contains(sequence) else { throw .corrupt }
            var entry = TraceFile.TurnEntry(sequence: TurnNumber(sequence), line: line, range: range)
            let idleOffset = try reader.unsigned()
            if idleOffset > 0 {
                let idleStart = end + (try reader.signed())
                let idleRange = try IndexDecoder.range(
                    from: idleStart, length: try reader.unsigned(), within: covered)
                end = idleRange.upperBound
                entry.idle = (line + idleOffset - 1, idleRange)
            }
            if let previous = contents.sequences.last, previous.rawValue >= sequence { throw .corrupt }
            contents.entries.append(entry)
            contents.sequences.append(TurnNumber(sequence))
        }
        var warnings: [TraceWarning] = []
        for _ in 0..<(try reader.count(atMost: lineCount + 1)) {
            warnings.append(TraceWarning(line: try reader.unsigned(), message: try reader.string()))
        }
        for _ in 0..<(try reader.count(atMost: entryCount)) {
            let first = try reader.unsigned()
            let last = try reader.unsigned()
            contents.missingTurns.append(
                MissingTurns(first: TurnNumber(first), last: TurnNumber(last), line: try reader.unsigned()))
        }
        guard reader.isAtEnd else { throw .corrupt }
        do throws(TraceReadError) {
            var spanned = 0
            for (position, record) in records.enumerated() {
                if position % 256 == 0 { report(entryCount + position) }
                try contents.readRecord(record.range, line: record.line, of: bytes, memoryBudget: memoryBudget)
                // Each line read faults in the pages around it as well: the span of the file
                // passed over is what counts towards giving them back.
                bytes.noteRead(max(record.range.count, record.range.upperBound - spanned))
                spanned = record.range.upperBound
            }
        } catch {
            throw .corrupt
        }
        guard contents.hasHeader else { throw .corrupt }
        // A finished trace does not grow: one longer than its index is another file.
        if covered < bytes.count, contents.trailer != nil { throw .stale }
        guard verification.wait() == expectedChecksum else { throw .stale }
        contents.warnings = warnings
        contents.lineNumber = lineCount
        contents.readOffset = covered
        return contents
    }

    /// The checksum of the trace's first line (within the part covered): a quick test that an
    /// index is this trace's before anything else is read.
    static func headChecksum(of bytes: TraceBytes, covering size: Int) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            let covered = buffer[0..<min(size, buffer.count)]
            return checksum(covered[0..<(covered.firstIndex(of: 0x0A) ?? covered.endIndex)])
        }
    }

    /// FNV-1a, 64 bits: enough to tell a changed file from the same one, not a defence against
    /// someone forging an index (an index that lies only misplaces turns it then cannot decode).
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

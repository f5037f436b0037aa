import CogTraceFormat
import Foundation

/// What reading a trace's lines has found so far: the header, states, keyframes, failures, the
/// trailer and where each turn's record sits. A whole file is read in one go; a followed file
/// keeps reading as complete lines arrive, so nothing already read is read again.
struct TraceContents {
    var header: TraceHeader?
    /// Whether the header is read: a look at the optional's case, where comparing it with nil
    /// copied the header (and released its strings) on every line.
    var hasHeader: Bool {
        if case .some = header { return true }
        return false
    }
    var states: [NodeID: TraceStateInfo] = [:]
    /// State ids by label; the first state to take a label keeps it.
    var labelIndex: [String: NodeID] = [:]
    /// In turn order (a failure arriving out of order is placed where it belongs).
    var failures: [TraceFailure] = []
    var trailer: TraceTrailer?
    /// The trailer's line, for warnings about what it says.
    var trailerLine = 0
    var warnings: [TraceWarning] = []
    /// Runs of turn numbers missing between two turn records: a writer numbers turns one after
    /// another, so a gap means lines were lost or cut out, and answers past it may be wrong.
    var missingTurns: [MissingTurns] = []
    /// In order of `before`.
    var keyframes: [(before: TurnNumber, snapshot: GraphSnapshot)] = []
    /// The line of each keyframe, in the order of `keyframes`.
    var keyframeLines: [Int] = []
    var entries: [TraceFile.TurnEntry] = []
    /// The turn numbers of `entries`.
    var sequences: [TurnNumber] = []
    var leadingIdle: (line: Int, range: Range<Int>)?
    /// The keyframe text read so far, checked against the memory budget.
    var keyframeBytes = 0
    var largestKeyframeBytes = 0
    /// Lines read, counting blank ones: the number of the last line read.
    var lineNumber = 0
    /// The offset of the first byte not read yet: the start of a line.
    var readOffset = 0
    /// Every record that is not a turn or an idle record (header, states, keyframes, failures,
    /// the trailer, unknown ones), with its line, in file order: what a sidecar index keeps so
    /// that reopening reads these lines again and none of the turns.
    var recordLines: [(line: Int, range: Range<Int>)] = []
    /// Where the truncated last line that reading ignored starts, with its line number: a
    /// file still being written resumes there.
    var truncatedLine: (start: Int, number: Int)?

    /// Reads the lines of `bytes` from `readOffset` on.
    /// - Parameters:
    ///   - waitsForPartialLine: for a file still being written: a last line without its line feed
    ///     is left for the next read instead of judged now.
    ///   - progress: told how far the lines are read, in bytes, every `progressStep` of them.
    /// - Throws: `TraceReadError` for a malformed line, or one past the memory budget.
    mutating func read(
        _ bytes: TraceBytes, memoryBudget: MemoryBudget, waitsForPartialLine: Bool,
        progress: ((TraceProgress) -> Void)? = nil
    ) throws(TraceReadError) {
        if readOffset == 0, entries.isEmpty {
            // Room for every turn at once: grown a turn at a time, the lists of a big file
            // asked the system for twice their final size in fresh pages (each zeroed by the
            // kernel) and copied themselves as they doubled.
            let turns = TraceScanner.turnRecordCount(in: bytes)
            entries.reserveCapacity(turns)
            sequences.reserveCapacity(turns)
        }
        var nextReport = readOffset
        while readOffset < bytes.count {
            if readOffset >= nextReport {
                progress?(TraceProgress(task: TraceFile.loadingTask, completed: readOffset, total: bytes.count))
                // The lines read are not read again here: a mapped file's pages can go.
                if readOffset > 0 { bytes.noteRead(Self.progressStep) }
                nextReport = readOffset + Self.progressStep
            }
            let newline = TraceScanner.nextNewline(in: bytes, from: readOffset)
            if newline == nil, waitsForPartialLine { return }
            let end = newline ?? bytes.count
            let range = readOffset..<end
            lineNumber += 1
            readOffset = end + 1
            guard range.count <= TraceScanner.maxLineBytes else {
                throw TraceReadError(line: lineNumber, message: "line longer than \(TraceScanner.maxLineBytes) bytes")
            }
            if range.isEmpty { continue }
            guard try readLine(range, of: bytes, isLast: newline == nil, memoryBudget: memoryBudget) else { break }
        }
        progress?(TraceProgress(task: TraceFile.loadingTask, completed: bytes.count, total: bytes.count))
    }

    /// How many bytes of lines are read between two progress reports.
    static let progressStep = 8 << 20

    /// Reads one line; false when it was a truncated last line (noted, and reading ends).
    private mutating func readLine(
        _ range: Range<Int>, of bytes: TraceBytes, isLast: Bool, memoryBudget: MemoryBudget
    ) throws(TraceReadError) -> Bool {
        let type: String
        // Turn and idle records are located here and decoded when asked for: their `record` is
        // never read, and stays null.
        let record: JSONValue
        let quick = TraceScanner.quickType(bytes[range])
        if quick == .keyframe {
            // Checked before parsing: a keyframe's decoded graph is many times its text.
            keyframeBytes += range.count
            largestKeyframeBytes = max(largestKeyframeBytes, range.count)
            try memoryBudget.check(keyframeBytes: keyframeBytes, line: lineNumber)
        }
        if quick == .turn || quick == .idle {
            type = quick == .turn ? "turn" : "idle"
            record = .null
        } else {
            let parsed: JSONValue
            do throws(TraceReadError) {
                parsed = try TraceScanner.parseLine(bytes[range], line: lineNumber)
            } catch {
                if isLast { return noteTruncated(range) }
                throw error
            }
            guard let recordType = parsed["type"]?.stringValue else {
                throw TraceReadError(line: lineNumber, column: 1, message: "record has no 'type'")
            }
            type = recordType
            record = parsed
        }
        if !hasHeader, type != "header" {
            throw TraceReadError(
                line: lineNumber, column: 1, message: "expected a header record first, found '\(type)'")
        }
        if type != "turn", type != "idle" { recordLines.append((lineNumber, range)) }
        switch type {
        // Turn and idle records first: they are two lines a turn, and a string case costs a comparison.
        case "turn":
            let parsedSequence =
                TraceScanner.quickSequence(bytes[range])
                ?? (try? TraceScanner.parseLine(bytes[range], line: lineNumber))?["seq"]?.intValue
            guard let sequence = parsedSequence else {
                if isLast { return noteTruncated(range) }
                throw TraceReadError(line: lineNumber, message: "turn record needs 'seq'")
            }
            if isLast, (try? TraceScanner.parseLine(bytes[range], line: lineNumber)) == nil {
                return noteTruncated(range)
            }
            guard TraceScanner.validCounts.contains(sequence) else {
                throw TraceReadError(line: lineNumber, message: "turn 'seq' \(sequence) is outside 0..<2^53")
            }
            if let previous = entries.last, previous.sequence.rawValue >= sequence {
                throw TraceReadError(line: lineNumber, message: "turn \(sequence) follows turn \(previous.sequence)")
            }
            if let previous = entries.last, previous.sequence.rawValue + 1 < sequence {
                let gap = MissingTurns(
                    first: TurnNumber(previous.sequence.rawValue + 1), last: TurnNumber(sequence - 1), line: lineNumber)
                missingTurns.append(gap)
                warnings.append(
                    TraceWarning(line: lineNumber, message: "\(gap.description) (a writer numbers every turn)"))
            }
            entries.append(TraceFile.TurnEntry(sequence: TurnNumber(sequence), line: lineNumber, range: range))
            sequences.append(TurnNumber(sequence))
        case "idle":
            if isLast, (try? TraceScanner.parseLine(bytes[range], line: lineNumber)) == nil {
                return noteTruncated(range)
            }
            // One idle record follows a turn (or opens the file). A second would have replaced
            // the first and its events gone unsaid, and a followed trace's index kept the
            // first one's places against the second one's bytes; it is named and left out.
            if entries.isEmpty ? leadingIdle != nil : entries[entries.count - 1].idle != nil {
                let place = entries.last.map { "after turn \($0.sequence.rawValue)" } ?? "before the first turn"
                warnings.append(
                    TraceWarning(
                        line: lineNumber, message: "a second idle record \(place) (a writer writes one); ignored"))
            } else if entries.isEmpty {
                leadingIdle = (lineNumber, range)
            } else {
                entries[entries.count - 1].idle = (lineNumber, range)
            }
        case "header":
            guard !hasHeader else { throw TraceReadError(line: lineNumber, message: "a second header record") }
            header = try TraceScanner.readHeader(record, line: lineNumber)
        case "state":
            guard let info = TraceStateInfo(jsonValue: record) else {
                throw TraceReadError(line: lineNumber, message: "state record needs 'id' and 'label'")
            }
            states[info.id] = info
            if labelIndex[info.label] == nil { labelIndex[info.label] = info.id }
        case "keyframe":
            guard let before = record["before"]?.intValue else {
                throw TraceReadError(line: lineNumber, message: "keyframe record needs 'before'")
            }
            guard TraceScanner.validCounts.contains(before) else {
                throw TraceReadError(line: lineNumber, message: "keyframe 'before' \(before) is outside 0..<2^53")
            }
            let snapshot: GraphSnapshot
            do {
                snapshot = try GraphSnapshot(keyframe: record)
            } catch {
                throw TraceReadError(line: lineNumber, message: "keyframe: \(error)")
            }
            let place = keyframes.lastIndex { $0.before.rawValue <= before }.map { $0 + 1 } ?? 0
            keyframes.insert((TurnNumber(before), snapshot), at: place)
            keyframeLines.insert(lineNumber, at: place)
        case "trailer":
            trailer = TraceTrailer(jsonValue: record)
            trailerLine = lineNumber
        case "failure":
            guard let failure = TraceFailure(jsonValue: record),
                TraceFormat.countRange.contains(failure.after.rawValue)
            else {
                warnings.append(
                    TraceWarning(
                        line: lineNumber, message: "failure record needs 'after' (in 0..<2^53) and 'message'; ignored"))
                return true
            }
            let place = failures.lastIndex { $0.after <= failure.after }.map { $0 + 1 } ?? 0
            failures.insert(failure, at: place)
        default:
            warnings.append(
                TraceWarning(line: lineNumber, message: "unknown record type '\(type)' (from a newer writer?); ignored")
            )
        }
        return true
    }

    /// Reads one record line that is not a turn or idle record, at line `line`: how reopening
    /// with a sidecar index reads the records it lists.
    mutating func readRecord(
        _ range: Range<Int>, line: Int, of bytes: TraceBytes, memoryBudget: MemoryBudget
    ) throws(TraceReadError) {
        lineNumber = line
        _ = try readLine(range, of: bytes, isLast: false, memoryBudget: memoryBudget)
    }

    /// Notes a last line cut short (a crash mid-write): it is ignored. Always false, for
    /// `readLine` to return.
    private mutating func noteTruncated(_ range: Range<Int>) -> Bool {
        truncatedLine = (range.lowerBound, lineNumber)
        warnings.append(TraceWarning(line: lineNumber, message: "last line is truncated; ignored"))
        return false
    }

    /// Whether `warning` is about how the file ends (no trailer, a truncated last line): true of
    /// this read only, so a sidecar index does not keep it.
    static func isEndWarning(_ warning: TraceWarning) -> Bool {
        warning.message.hasPrefix("no trailer") || warning.message.hasPrefix("last line is truncated")
            || isExtentWarning(warning)
    }

    /// Makes a whole-file read into one that waits for more: a truncated last line is read
    /// again when the rest of it arrives, and the warnings about a missing end go.
    mutating func resume(byteCount: Int) {
        if let truncatedLine {
            readOffset = truncatedLine.start
            lineNumber = truncatedLine.number - 1
            self.truncatedLine = nil
        }
        readOffset = min(readOffset, byteCount)
        warnings.removeAll(where: Self.isEndWarning)
    }

    /// The error for a file that has no header: an empty one, or one cut inside its first line.
    func missingHeader(in bytes: TraceBytes) -> TraceReadError {
        let message =
            bytes.isEmpty
            ? "empty file: no header record"
            : "no header record: the file ends inside its first line (a truncated header)"
        return TraceReadError(line: lineNumber == 0 ? 0 : 1, message: message)
    }
}

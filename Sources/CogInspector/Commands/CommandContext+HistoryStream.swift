import CogTraceFormat
import CogTraceStore

extension CommandContext {
    /// `history STATE` as a stream of rows, for a front end that shows the first screen while
    /// the rest is found: the recording is indexed from its first turn in growing batches
    /// (unless an index of every turn exists already), and each batch's rows are given as soon
    /// as they are known. Read whole, the rows and what follows them are `stateHistory`'s.
    /// - Parameter firstBatch: how many turns the first batch indexes; each next one is four
    ///   times bigger, up to `streamBatchLimit`.
    func streamedStateHistory(
        of id: NodeID, field: String?, through limit: TurnNumber?, firstBatch: Int = 8_192
    ) -> [Report] {
        let end = limit.flatMap { trace.entryIndex(of: $0) }.map { $0 + 1 } ?? turns.count
        let timeline: StateTimeline
        if hasTimeline {
            timeline = self.timeline
        } else {
            let index =
                TraceEventIndex(trace: trace, only: [id], reportsProgress: false, upTo: min(end, firstBatch))
                ?? TraceEventIndex(empty: trace)
            timeline = StateTimeline(trace: trace, index: index)
        }
        let path = field.map(JSONPath.init)
        var consumed = 0
        var batch = firstBatch
        var usesAfterTurn = false
        var textOnlyAt: TurnNumber?
        var interrupted = false
        // The stream holds this command's context until it is read; nothing holds the stream.
        // A turn column as wide as the last turn's number and its `+`, so batches line up.
        let turnWidth = "\(turns.last ?? 0)+".count
        let stream = TableRowStream(
            minimumWidths: [turnWidth, 0, 0],
            produce: { [self] in
                if self.interruptRequested() {
                    interrupted = true
                    return nil
                }
                let entries = limit.map { timeline.entries(of: id, through: $0) } ?? timeline.entries(of: id)
                if consumed < entries.count {
                    let slice = entries[consumed..<min(entries.count, consumed + Self.streamRowBatch)]
                    consumed = slice.endIndex
                    let decoded = slice.decoded(kinds: ["write", "seeded", "created", "recompute", "released"])
                    timeline.readHeadings(of: decoded.filter { $0.event?.setsValue(of: id) == true }.map(\.turn))
                    // The rows' sentences read turn headings through the timeline read now.
                    self.timelineRead = timeline
                    let rows = decoded.compactMap { self.historyRow(of: id, at: $0, path: path) }
                    if path != nil, textOnlyAt == nil {
                        textOnlyAt = decoded.first { self.setsTextOnlyValue(of: id, at: $0) }?.turn
                    }
                    timeline.forgetHeadings()
                    usesAfterTurn = usesAfterTurn || rows.contains(where: Self.isAfterTurn)
                    return rows
                }
                guard timeline.indexedTurnCount < end else { return nil }
                timeline.extend(upTo: min(end, timeline.indexedTurnCount + batch))
                batch = min(batch * 4, Self.streamBatchLimit)
                return []
            },
            finish: { [self] hadRows in
                self.timelineRead = timeline
                var trailer = self.historyTrailer(
                    of: id, field: field, hasRows: hadRows, usesAfterTurn: usesAfterTurn, textOnlyAt: textOnlyAt)
                if interrupted {
                    trailer.append(.warning("stopped by Ctrl-C: the history goes on past the rows above"))
                }
                return trailer
            })
        return [.streamedTable(columns: Self.historyColumns, rows: stream)]
    }

    /// How many of a state's events one streamed batch decodes into rows.
    static let streamRowBatch = 4_096
    /// The most turns one batch of a streamed answer indexes.
    static let streamBatchLimit = 262_144
}

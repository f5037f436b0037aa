import CogInspector
import Foundation

extension OutputPrinter {
    /// Rows a batch answer gathers before it is written: one that ends within them prints whole,
    /// as any answer; a longer one is written a batch at a time as it is found, so a `history`
    /// or `find` over millions of turns never holds its whole answer.
    static let streamingThreshold = 4_096

    /// Shows a result holding a streamed table at the prompt: when its first screen of rows is
    /// all there is, as any result; otherwise the pager starts with that screen, and each next
    /// batch of rows is handed to it as it is found. Quitting the pager stops the work.
    func printStreaming(_ result: CommandResult, at position: Int) {
        guard case .streamedTable(_, let stream) = result.report[position] else { return }
        var first = Gathered()
        first.read(stream, upTo: terminalRows())
        guard first.trailer == nil, let pager = popen("less -FRX", "w") else {
            first.read(stream, upTo: .max)
            return print(first.whole(result, at: position))
        }
        writeText(result, at: position, first: first) { text in fputs(text, pager) >= 0 && fflush(pager) == 0 }
        pclose(pager)
    }

    /// Writes a result holding a streamed table in a batch run: whole when it ends within
    /// `streamingThreshold` rows, else as text or one JSON document written a batch at a time.
    func writeStreaming(_ result: CommandResult, at position: Int) {
        var first = Gathered()
        if case .streamedTable(_, let stream) = result.report[position] {
            first.read(stream, upTo: Self.streamingThreshold)
        }
        guard first.trailer == nil else { return print(first.whole(result, at: position)) }
        let emit: (String) -> Bool = { text in
            Self.writeToStandardOutput(text)
            return true
        }
        if printsJSON {
            writeJSON(result, at: position, first: first, emit: emit)
        } else {
            writeText(result, at: position, first: first, emit: emit)
        }
    }

    /// The rows read from a stream so far, and what followed them once it ended.
    struct Gathered {
        var rows: [[Cell]] = []
        var trailer: [Report]?

        /// Reads `stream` until `limit` rows are in or it ends.
        mutating func read(_ stream: TableRowStream, upTo limit: Int) {
            while rows.count < limit, trailer == nil, let part = stream.next() {
                switch part {
                case .rows(let batch): rows += batch
                case .trailer(let reports): trailer = reports
                }
            }
        }

        /// `result` with its stream replaced by the rows and trailer read, as a whole answer.
        func whole(_ result: CommandResult, at position: Int) -> CommandResult {
            guard case .streamedTable(let columns, let stream) = result.report[position] else { return result }
            var table: [Report] = rows.isEmpty ? [] : [.table(columns: columns, rows: rows)]
            if let title = stream.title, !table.isEmpty { table = [.section(title, table)] }
            return CommandResult(
                command: result.command,
                report: Array(result.report[..<position]) + table + (trailer ?? [])
                    + Array(result.report[(position + 1)...]))
        }
    }

    /// The text of a streamed answer through `emit`: what comes before, the rows read, each
    /// next batch as it is found (stopping when `emit` fails), then the trailer and the rest.
    private func writeText(
        _ result: CommandResult, at position: Int, first: Gathered, emit: (String) -> Bool
    ) {
        guard case .streamedTable(let columns, let stream) = result.report[position] else { return }
        let before = Array(result.report[..<position])
        let after = Array(result.report[(position + 1)...])
        let renderer = self.renderer
        var widths = stream.minimumWidths
        // A titled stream is a section: its title, then its rows indented under it.
        let heading: [Report] = stream.title.map { [.section($0, [])] } ?? []
        let indent = heading.isEmpty ? "" : "  "
        var text =
            (before + heading).isEmpty
            ? "" : renderer.text(CommandResult(command: result.command, report: before + heading)) + "\n"
        text +=
            renderer.streamedTableText(
                columns: columns, rows: first.rows, widths: &widths, isFirstBatch: true, indent: indent) + "\n"
        var open = emit(text)
        var trailer = first.trailer
        while open, trailer == nil, let part = stream.next() {
            switch part {
            case .rows(let batch):
                let lines = renderer.streamedTableText(
                    columns: columns, rows: batch, widths: &widths, isFirstBatch: false, indent: indent)
                open = emit(lines + "\n")
            case .trailer(let reports):
                trailer = reports
            }
        }
        let rest = (trailer ?? []) + after
        if open, !rest.isEmpty { _ = emit(renderer.text(CommandResult(command: result.command, report: rest)) + "\n") }
    }

    /// The one JSON document of a streamed answer through `emit`, the same document a whole
    /// answer prints: the part before the rows, each batch of rows as it is found, then the
    /// trailer's parts and the rest.
    private func writeJSON(
        _ result: CommandResult, at position: Int, first: Gathered, emit: (String) -> Bool
    ) {
        guard case .streamedTable(let columns, let stream) = result.report[position] else { return }
        let renderer = self.renderer
        // The document is rendered around a table no answer has, which marks where the rows go.
        let marker = Report.table(columns: ["\u{1}rows\u{1}"], rows: [])
        let placeholder = stream.title.map { Report.section($0, [marker]) } ?? marker
        let document = renderer.json(
            CommandResult(
                command: result.command,
                report: Array(result.report[..<position]) + [placeholder] + Array(result.report[(position + 1)...])))
        guard let place = document.range(of: renderer.jsonText(of: marker)) else { return }
        // In a section the rows' table is its only part: the section closes right after it.
        let closing = stream.title == nil ? "" : "]}"
        let tail = document[place.upperBound...].dropFirst(closing.count)
        var open = emit(String(document[..<place.lowerBound]) + renderer.jsonTableOpening(columns: columns))
        var separator = ""
        func rows(_ batch: [[Cell]]) -> Bool {
            let text = batch.map { renderer.jsonText(ofRow: $0, columns: columns) }.joined(separator: ",")
            defer { separator = "," }
            return emit(separator + text)
        }
        open = open && rows(first.rows)
        var trailer = first.trailer
        while open, trailer == nil, let part = stream.next() {
            switch part {
            case .rows(let batch): open = rows(batch)
            case .trailer(let reports): trailer = reports
            }
        }
        guard open else { return }
        let parts = (trailer ?? []).filter(\.isPrinted).map { "," + renderer.jsonText(of: $0) }.joined()
        _ = emit("]}" + closing + parts + tail + "\n")
    }
}

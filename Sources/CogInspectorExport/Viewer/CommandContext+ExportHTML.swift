import CogCommandLine
import CogInspector
import CogTraceFormat
import CogTraceStore
import Foundation

extension CommandContext {
    /// `export html [--layout L] [--turns A..B] [--trace OTHER] [--focus STATE [--depth D]]`: the
    /// viewer page, of a window of turns when the recording is long, beside a second recording
    /// when asked to compare, opening in focus on one state when asked.
    func exportHTML(_ arguments: CommandArguments, to output: OutputFile?) throws(InspectorError) -> [Report] {
        guard arguments.options["--turn"] == nil else {
            throw InspectorError(
                "export html draws every turn of the recording; --turn does not apply (--turns A..B picks a window)")
        }
        guard arguments.options["--unfold"] == nil else {
            throw InspectorError("export html unfolds a family on a click, or with #unfold=FAMILY in its address")
        }
        let focus = try focus(arguments)
        let layout = try Self.layoutChoice(arguments)
        let range = try arguments.options["--turns"].map { text throws(InspectorError) in
            try CommandArguments.range(text)
        }
        var notes: [Report] = []
        let window = try viewerWindow(range, notes: &notes)
        var request = ViewerPage.Request(window: window, layout: layout)
        request.focus = focus.map { ($0.label, $0.depth) }
        if let path = arguments.options["--trace"] {
            let other: TraceFile
            do {
                other = try TraceFile.load(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw InspectorError(error.line == 0 ? error.message : "'\(path)' is malformed: \(error)")
            }
            let otherSession = InspectorSession(trace: other, source: path, catalog: catalog).context(call)
            request.other = (otherSession, try otherSession.viewerWindow(range, notes: &notes))
        }
        let page = try ViewerPage.render(self, request)
        let what = request.other == nil ? "" : " beside \(request.other?.session.source ?? "")"
        let shown =
            window.count == turns.count
            ? "\(turns.count) turns" : "turns \(turns[window.lowerBound])..\(turns[window.upperBound - 1])"
        notes += page.notes.map(Report.message)
        return notes
            + (try deliver(
                page.html, to: output,
                summary: "an html viewer of \(shown)\(what) (laid out by \(page.layout.rawValue))"))
    }

    /// The layout `--layout` and `--layout-seconds` ask for: by default Graphviz when it is on
    /// the PATH and the graph is small enough to finish, with a time limit either way.
    static func layoutChoice(_ arguments: CommandArguments) throws(InspectorError) -> ViewerLayout.EngineChoice {
        var choice = ViewerLayout.EngineChoice()
        if let text = arguments.options["--layout-seconds"] {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw InspectorError("--layout-seconds takes a number of seconds above 0, up to 86400; got '\(text)'")
            }
            choice.timeLimit = .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        switch arguments.options["--layout"] {
        case nil: choice.graphviz = ViewerLayout.graphvizOnPath
        case "layered": choice.graphviz = nil
        case "dot":
            guard let found = ViewerLayout.graphvizOnPath else {
                throw InspectorError("--layout dot needs Graphviz's dot on the PATH; --layout layered needs nothing")
            }
            choice.graphviz = found
            choice.isExplicit = true
        case let other?:
            throw InspectorError("unknown layout '\(other)'; expected dot or layered")
        }
        return choice
    }

    /// The positions of the turns a page shows: those in `range`, or every turn of a recording
    /// of at most `size` turns, or that many around the cursor (with a note in `notes` saying so
    /// and how to choose another window).
    func viewerWindow(
        _ range: ClosedRange<TurnNumber>?, size: Int = ViewerPage.defaultWindow, notes: inout [Report]
    ) throws(InspectorError) -> Range<Int> {
        if let range {
            let low = turns.partitioningIndex { $0 >= range.lowerBound }
            let high = turns.partitioningIndex { $0 > range.upperBound }
            guard low < high else {
                throw InspectorError(
                    "no turn of \(source) lies in \(range.lowerBound)..\(range.upperBound); its turns are "
                        + "\(turns.first ?? 0)..\(turns.last ?? 0)")
            }
            return low..<high
        }
        guard turns.count > size else { return turns.indices }
        let cursorPosition = turns.partitioningIndex { $0 >= cursor }
        let low = max(0, min(cursorPosition - size / 2, turns.count - size))
        let window = low..<(low + size)
        let first = turns[window.lowerBound]
        let last = turns[window.upperBound - 1]
        notes.append(
            .message(
                "\(source) has \(turns.count) turns: the page shows the \(size) turns \(first)..\(last) around the "
                    + "cursor (turn \(cursor)); --turns A..B exports another window, of any size"))
        return window
    }
}

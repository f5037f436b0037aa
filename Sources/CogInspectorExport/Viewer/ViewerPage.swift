import CogCommandLine
import CogInspector
import CogTraceFormat
import CogTraceStore
import Foundation

/// `export html`: one self-contained page (no network, no external script or font) that draws
/// the recording's graph after any turn. The layout is computed here, so the page only draws;
/// the data sits in a script element that does not run (JSON with every `<`, `>` and `&`
/// escaped, or for a large page gzip in base64), so no recorded value can close it, and the
/// page's script shows every value as text, never as markup.
enum ViewerPage {
    /// How many turns a page shows when no window is asked for: a longer recording exports the
    /// window of this many turns around the cursor (docs/performance.md has what such a page costs).
    static let defaultWindow = 20_000

    /// What one export draws: the turns of the recording (positions in its turn list) and, to
    /// compare, a second recording with the window of it drawn beside.
    struct Request {
        var window: Range<Int>
        var layout: ViewerLayout.EngineChoice
        var other: (session: CommandContext, window: Range<Int>)?
        /// The state the page opens in focus on, and how many edges from it it shows.
        var focus: (label: String, depth: Int)?
    }

    /// The page for `session`'s recording, at the turns of `request.window`.
    static func render(
        _ session: CommandContext, _ request: Request
    ) throws(InspectorError) -> (
        html: String, layout: ViewerLayout.Engine, notes: [String]
    ) {
        guard !session.turns.isEmpty else { throw InspectorError("the trace has no turns; export html shows turns") }
        var notes: [String] = []
        let main = try dataset(session, window: request.window, layout: request.layout, notes: &notes)
        var fields = main.fields
        if let focus = request.focus {
            guard main.labels.contains(focus.label) else {
                throw InspectorError(
                    "\(focus.label) is not drawn in the turns the page shows; --turns A..B picks others")
            }
            fields.append(("focus", .object([("state", .string(focus.label)), ("depth", .int(focus.depth))])))
        }
        if let other = request.other {
            guard !other.session.turns.isEmpty else {
                throw InspectorError("'\(other.session.source)' has no turns; export html --trace compares turns")
            }
            let drawn = try dataset(other.session, window: other.window, layout: request.layout, notes: &notes)
            fields.append(("other", .object(drawn.fields)))
            fields.append(("divergence", try divergence(session, other.session)))
        }
        fields += [
            ("schemaVersion", .int(4)), ("style", style),
        ]
        // Only the page's own script runs: a nonce the content policy names, fresh for each page.
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let data = ViewerDataEncoding.element(for: scriptSafe(JSONValue.object(fields).jsonText))
        let html =
            head(title: session.trace.header.title, nonce: nonce) + data.tag + data.content
            + "</script>\n<script nonce=\"\(nonce)\">\n" + ViewerScript.source + "\n</script>\n</body>\n</html>\n"
        return (html, main.layout, notes)
    }

    /// The page for the whole of `session`'s recording.
    static func render(
        _ session: CommandContext, graphviz: URL?
    ) throws(InspectorError) -> (
        html: String, layout: ViewerLayout.Engine, notes: [String]
    ) {
        try render(session, Request(window: session.turns.indices, layout: .init(graphviz: graphviz)))
    }

    /// One recording's part of the page: its nodes laid out, its turns, keyframes and causes.
    private static func dataset(
        _ session: CommandContext, window: Range<Int>, layout choice: ViewerLayout.EngineChoice,
        notes: inout [String]
    ) throws(InspectorError) -> (fields: [(String, JSONValue)], layout: ViewerLayout.Engine, labels: Set<String>) {
        let model = try ViewerModel(session: session, window: window)
        let folding = ViewerFolding(nodes: model.nodes, edges: model.edges)
        let layout = try ViewerLayout.compute(
            nodes: folding.units, edges: folding.unitEdges, engine: choice,
            interruptRequested: session.interruptRequested, notes: &notes)
        // A folded family's states sit on its node until the page unfolds it.
        let nodes: [JSONValue] = model.nodes.enumerated().map { slot, node in
            let unit = folding.unitOfSlot[slot]
            let box = layout.boxes[unit]
            let size =
                folding.units[unit].memberCount == nil
                ? (width: box.width, height: box.height) : ViewerLayout.size(of: node)
            return .array([
                .string(node.label), .string(node.kind.rawValue), node.declaration.map(JSONValue.string) ?? .null,
                node.key.map(JSONValue.string) ?? .null, .double(box.x.rounded()), .double(box.y.rounded()),
                .double(size.width), .double(size.height), .int(model.stepsWithoutDecision[slot]),
            ])
        }
        let families: [JSONValue] = folding.families.map { family in
            let box = layout.boxes[folding.unitOfSlot[family.members[0]]]
            return .array([
                .string(family.declaration), .array(family.members.map(JSONValue.int)),
                .double(box.x.rounded()), .double(box.y.rounded()), .double(box.width), .double(box.height),
                .string(family.node.kind.rawValue),
            ])
        }
        let turns = session.turns
        let shown = window.clamped(to: turns.indices)
        return (
            [
                ("title", .string(TerminalText.escape(session.trace.header.title))),
                ("source", .string(session.source)),
                ("layout", .string(layout.engine.rawValue)), ("width", .double(layout.width.rounded(.up))),
                ("height", .double(layout.height.rounded(.up))),
                (
                    "window",
                    .object([
                        ("first", .int(turns[shown.lowerBound].rawValue)),
                        ("last", .int(turns[shown.upperBound - 1].rawValue)),
                        ("turns", .int(shown.count)), ("of", .int(turns.count)),
                        ("recordingFirst", .int(turns[0].rawValue)),
                        ("recordingLast", .int(turns[turns.count - 1].rawValue)),
                    ])
                ),
                ("opening", .int(session.cursor.rawValue)),
                ("nodes", .array(nodes)), ("families", .array(families)), ("turns", .array(model.turnRecords)),
                ("keyframes", .array(model.keyframes)),
                ("steps", .array(model.causes.steps)), ("lines", .array(model.lines.table.map(JSONValue.string))),
            ], layout.engine, Set(model.nodes.map(\.label))
        )
    }

    /// Where two recordings first part ways, as `diff --trace` finds it: the turn in each, whether
    /// it is the work after the turn, and the lines saying how; null when they agree.
    private static func divergence(
        _ session: CommandContext, _ other: CommandContext
    ) throws(InspectorError) -> JSONValue {
        let comparison: TraceComparison
        do {
            comparison = try TraceComparison(session.trace, other.trace)
        } catch {
            throw InspectorError("a turn could not be decoded: \(error)")
        }
        guard let first = comparison.firstDivergence else {
            return .object([("agree", .bool(true)), ("turnsCompared", .int(comparison.turnsCompared))])
        }
        return .object([
            ("agree", .bool(false)), ("turnsCompared", .int(comparison.turnsCompared)),
            ("turn", first.turn.map { .int($0.rawValue) } ?? .null),
            ("otherTurn", first.otherTurn.map { .int($0.rawValue) } ?? .null), ("afterTurn", .bool(first.afterTurn)),
            ("aspects", .array(first.aspects.map { .string($0.rawValue) })),
            ("lines", .array(first.lines.map(JSONValue.string))),
        ])
    }

    /// JSON text that cannot end the script element holding it or start markup inside it: the
    /// three characters can only occur inside JSON strings, where `\u` escapes mean the same.
    static func scriptSafe(_ json: String) -> String {
        var safe = ""
        safe.reserveCapacity(json.utf8.count)
        for character in json.unicodeScalars {
            switch character {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            case "\u{2028}": safe += "\\u2028"
            case "\u{2029}": safe += "\\u2029"
            default: safe.unicodeScalars.append(character)
            }
        }
        return safe
    }

    /// The marks' colours and the shapes' names, from the style the DOT export uses.
    private static var style: JSONValue {
        .object([
            ("fills", .object(GraphView.Mark.allCases.map { ($0.rawValue, .string(GraphStyle.fill($0))) })),
            ("markMeanings", .object(GraphView.Mark.allCases.map { ($0.rawValue, .string(GraphStyle.meaning($0))) })),
            ("added", .string(GraphStyle.addedColor)), ("removed", .string(GraphStyle.removedColor)),
            (
                "kinds",
                .array(
                    [GraphView.Kind.manual, .automatic, .async, .reaction, .watch, .export, .scope].map {
                        .array([
                            .string($0.rawValue), .string(GraphStyle.shapeName($0)), .string(GraphStyle.meaning($0)),
                        ])
                    })
            ),
        ])
    }

    private static func head(title: String, nonce: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:">
        <title>\(htmlText(title)) · Cog graph</title>
        <style>
        \(ViewerScript.styles)
        </style>
        </head>
        <body>
        <header><strong id="title"></strong> <span id="where"></span> <span id="window-note"></span>
          <input id="search" type="search" placeholder="search states and turns" autocomplete="off">
          <ol id="matches" hidden></ol></header>
        <nav><input id="scrubber" type="range" min="0" value="0" aria-label="turn"><div id="scrubber-marks"></div><div id="turns"></div></nav>
        <main id="panes"></main>
        <aside><section id="differences"></section><section id="changes"></section>
        <section id="details"><p class="hint">Click a state to see its value, what it reads, who reads and holds it, and why it has its value.</p></section>
        <section id="legend"></section></aside>

        """
    }

    /// Text for an HTML element's content: the title, the one value written into markup.
    /// Trace text as inert markup: control characters escaped as the terminal escapes them
    /// (an entity would still put a raw ESC in a title bar), then `&`, `<` and `>` as entities.
    static func htmlText(_ text: String) -> String {
        TerminalText.escape(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;")
    }
}

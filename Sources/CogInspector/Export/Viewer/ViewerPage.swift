import CogCommandLine
import CogTraceFormat
import Foundation

/// `export html`: one self-contained page (no network, no external script or font) that draws
/// the recording's graph after any turn. The layout is computed here, so the page only draws;
/// the data sits in a `application/json` script element with every `<`, `>` and `&` escaped, so
/// no recorded value can close it, and the page's script shows every value as text, never as
/// markup.
enum ViewerPage {
    /// The page for `session`'s recording.
    /// - Parameter graphviz: `dot` to lay the graph out with; nil for the built-in layout.
    static func render(
        _ session: InspectorSession, graphviz: URL?
    ) throws(InspectorError) -> (
        html: String, layout: ViewerLayout.Engine
    ) {
        guard !session.turns.isEmpty else { throw InspectorError("the trace has no turns; export html shows turns") }
        let model = try ViewerModel(session: session)
        let layout = ViewerLayout.compute(nodes: model.nodes, edges: model.edges, graphviz: graphviz)
        let nodes: [JSONValue] = model.nodes.enumerated().map { slot, node in
            let box = layout.boxes[slot]
            return .array([
                .string(node.label), .string(node.kind.rawValue), node.declaration.map(JSONValue.string) ?? .null,
                node.key.map(JSONValue.string) ?? .null, .double(box.x.rounded()), .double(box.y.rounded()),
                .double(box.width), .double(box.height), .int(model.stepsWithoutDecision[slot]),
            ])
        }
        let data: JSONValue = .object([
            ("schemaVersion", .int(2)), ("title", .string(TerminalText.escape(session.trace.header.title))),
            ("source", .string(session.source)),
            ("layout", .string(layout.engine.rawValue)), ("width", .double(layout.width.rounded(.up))),
            ("height", .double(layout.height.rounded(.up))), ("keyframeInterval", .int(ViewerModel.keyframeInterval)),
            ("nodes", .array(nodes)), ("turns", .array(model.turnRecords)), ("keyframes", .array(model.keyframes)),
            ("steps", .array(model.causes.steps)),
            ("style", style),
        ])
        // Only the page's own script runs: a nonce the content policy names, fresh for each page.
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let html =
            head(title: session.trace.header.title, nonce: nonce)
            + "<script id=\"cog-data\" type=\"application/json\">" + scriptSafe(data.jsonText)
            + "</script>\n<script nonce=\"\(nonce)\">\n" + ViewerScript.source + "\n</script>\n</body>\n</html>\n"
        return (html, layout.engine)
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
        <header><strong id="title"></strong> <span id="where"></span>
          <input id="search" type="search" placeholder="search states and turns" autocomplete="off">
          <ol id="matches" hidden></ol></header>
        <nav><input id="scrubber" type="range" min="0" value="0" aria-label="turn"><div id="turns"></div></nav>
        <main><svg id="graph" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the graph after the turn"></svg></main>
        <aside><section id="details"><p class="hint">Click a state to see its value, what it reads, who reads and holds it, and why it has its value.</p></section>
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

import Foundation
import Testing

/// The page `export html` writes, opened in real headless Chromium (installed by `.ci/run`):
/// it draws the graph, marks what a turn did, answers the keyboard, and runs no script a
/// recorded value carries.
@Suite("HTML viewer in a browser", .serialized, .enabled(if: HeadlessChromium.executable != nil, "needs chromium"))
struct ViewerBrowserTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Exports `trace` to a page with the real `coginspect`; the page's URL.
    private func export(_ trace: String, layout: String = "dot") throws -> URL {
        let page = directory.appendingPathComponent("\(UUID().uuidString).html")
        let outcome = try Executables.coginspect([trace, "-c", "export html --layout \(layout) --to \(page.path)"])
        guard outcome.status == 0 else { throw HeadlessChromium.Failure(description: outcome.standardError) }
        return page
    }

    private func url(_ page: URL, fragment: String) -> URL {
        URL(string: page.absoluteString + "#" + fragment)!
    }

    private static let ready = "document.body !== null && document.body.dataset.ready === 'true'"

    /// The node drawn for `label`: its classes and its value line.
    private func node(_ browser: HeadlessChromium, _ label: String) throws -> [String]? {
        try browser.evaluate(
            """
            (() => { const g = [...document.querySelectorAll('g.node')].find(n => n.dataset.label === \(quoted(label)));
              return g ? [g.getAttribute('class'), g.querySelector('.value').textContent, g.style.display] : null })()
            """) as? [String]
    }

    private func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// How many pixels of the drawn graph are not the background, drawn onto a canvas.
    private let inkedPixels = """
        new Promise(resolve => {
          const svg = document.getElementById('graph');
          const image = new Image();
          image.onload = () => {
            const canvas = document.createElement('canvas');
            canvas.width = svg.width.baseVal.value; canvas.height = svg.height.baseVal.value;
            const context = canvas.getContext('2d');
            context.fillStyle = '#ffffff'; context.fillRect(0, 0, canvas.width, canvas.height);
            context.drawImage(image, 0, 0);
            const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
            let inked = 0;
            for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 200 || pixels[i + 1] < 200 || pixels[i + 2] < 200) inked++;
            resolve(inked);
          };
          image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
        })
        """

    @Test(arguments: ["dot", "layered"])
    func theTourAtTurnSixShowsTheRecomputeAndTheArrowKeyMovesOn(_ layout: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try export("Recordings/tour.cogtrace", layout: layout)
        let browser = try HeadlessChromium()
        try browser.open(url(page, fragment: "turn=6&state=weather.isNiceHere"), until: Self.ready)
        #expect(try browser.evaluate("document.body.dataset.turn") as? String == "6")
        let here = try #require(try node(browser, "weather.isNiceHere"))
        #expect(here[0].split(separator: " ").contains("recomputed"), "classes: \(here[0])")
        #expect(here[1] == "true")
        #expect(here[2] != "none")
        #expect(try browser.evaluate("document.getElementById('detail-value').textContent") as? String == "true")
        let why = try browser.evaluate("document.getElementById('detail-why').textContent") as? String ?? ""
        #expect(
            why.contains("weather.isNiceHere: false → true, recomputed in turn 6 (weather.forecast[10001] success)"),
            "why: \(why)")

        let screenshot = try browser.screenshot()
        #expect(screenshot.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(screenshot.count > 30_000, "a blank window compresses to a few KiB; got \(screenshot.count) bytes")
        let inked = try #require(try browser.evaluate(inkedPixels) as? Int)
        #expect(inked > 5_000, "the graph draws: \(inked) pixels are not background")

        let placeAtSix =
            try browser.evaluate(
                "document.querySelector('g.node[data-label=\"weather.currentZip\"]').getAttribute('transform')")
            as? String
        try browser.press("ArrowRight", code: 39)
        #expect(try browser.evaluate("document.body.dataset.turn") as? String == "7")
        let placeAtSeven =
            try browser.evaluate(
                "document.querySelector('g.node[data-label=\"weather.currentZip\"]').getAttribute('transform')")
            as? String
        #expect(placeAtSix != nil && placeAtSix == placeAtSeven, "nodes stay where they are from turn to turn")
        #expect(try browser.evaluate("location.hash") as? String == "#turn=7&state=weather.isNiceHere")
        try browser.press("End", code: 35)
        #expect(try browser.evaluate("document.body.dataset.turn") as? String == "25")
        try browser.press("Home", code: 36)
        #expect(try browser.evaluate("document.body.dataset.turn") as? String == "1")

        // The search box finds states and turns by name; a match is a click away.
        _ = try browser.evaluate("document.getElementById('search').focus()")
        try browser.send("Input.insertText", ["text": "isNiceH"])
        let found =
            try browser.evaluate("[...document.querySelectorAll('#matches li')].map(li => li.textContent)") as? [String]
        #expect(found == ["state weather.isNiceHere"])
        _ = try browser.evaluate("document.querySelector('#matches li').click()")
        #expect(
            try browser.evaluate("document.getElementById('detail-label').textContent") as? String
                == "weather.isNiceHere")
    }

    /// The why panel renders the engine's chain: its lines are the terminal's, word for word,
    /// for states of every kind at turns before, at and after their changes.
    @Test func theWhyPanelSaysWhatTheTerminalSays() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try export("Recordings/tour.cogtrace")
        let browser = try HeadlessChromium()
        let questions: [(turn: Int, state: String)] = [
            (6, "weather.isNiceHere"), (9, "weather.isNiceHere"), (5, "weather.isNiceHere"),
            (11, "weather.isNice[10001]"), (25, "weather.forecast[98101]"), (8, "weather.receivesHourlyUpdates"),
            (3, "weather.currentZip"),
        ]
        for (turn, state) in questions {
            // A new fragment on the same page does not load it again: leave it first.
            try browser.open(try #require(URL(string: "about:blank")), until: "document.readyState === 'complete'")
            try browser.open(url(page, fragment: "turn=\(turn)&state=\(state)"), until: Self.ready)
            let panel =
                try browser.evaluate("[...document.querySelectorAll('#detail-why li')].map(li => li.textContent)")
                as? [String] ?? []
            let terminal = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "why \(state) @\(turn)"])
            // The terminal's tree guides and indentation are its own layout; the words are the panel's.
            let lines = terminal.standardOutput.split(separator: "\n").map { $0.drop { " │├└".contains($0) } }.map(
                String.init)
            #expect(panel == lines, "\(state) at turn \(turn)")
        }
    }

    /// A failing test with a long name and a turn with a long name: the failure wraps inside
    /// the side panel rather than being clipped by it, and a turn row cut at the list's edge
    /// carries its whole name for the pointer to show.
    @Test func longNamesAreNeverLostAtAnEdge() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = "CheckoutIntegrationTests.theBasketTotalIncludesEveryDiscountAndTheDeliveryChargeForOversizedItems"
        let original = try String(
            contentsOf: Executables.fixtures.appendingPathComponent("TipJarTests.theTotalIncludesTheTip.cogtrace"),
            encoding: .utf8)
        let trace = directory.appendingPathComponent("long.cogtrace")
        try original.replacingOccurrences(of: "TipJarTests.theTotalIncludesTheTip", with: long)
            .replacingOccurrences(
                of: "chooseTip(percent:)", with: "chooseTipPercentageFromTheSuggestedAmountsShownBelowTheBill(percent:)"
            )
            .write(to: trace, atomically: true, encoding: .utf8)
        let page = try export(trace.path, layout: "layered")
        let browser = try HeadlessChromium()
        try browser.open(url(page, fragment: "turn=2"), until: Self.ready)
        let overflowing =
            try browser.evaluate(
                "[...document.querySelectorAll('.failure-entry div')].filter(d => d.scrollWidth > d.clientWidth + 1).map(d => d.textContent)"
            ) as? [String]
        #expect(overflowing == [], "clipped: \(overflowing ?? [])")
        #expect(
            try browser.evaluate("document.querySelector('.failure-test').textContent") as? String == long)
        let titles =
            try browser.evaluate("[...document.querySelectorAll('#turn-rows li')].map(li => li.title)") as? [String]
        #expect(
            titles?.contains("turn 2: chooseTipPercentageFromTheSuggestedAmountsShownBelowTheBill(percent:) (op)")
                == true,
            "\(titles ?? [])")
    }

    @Test func aRecordedScriptNeverRuns() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = HostileTour.markup
        let trace = directory.appendingPathComponent("hostile.cogtrace")
        try HostileTour.write(to: trace, replacing: [#""t":"10001""#, #""name":"selectLocation(_:)""#])
        let page = try export(trace.path)
        let browser = try HeadlessChromium()
        try browser.open(url(page, fragment: "turn=6&state=weather.currentZip"), until: Self.ready)
        usleep(300_000)  // time for an image's error handler, were one ever created
        #expect(try browser.evaluate("document.body.dataset.pwned === undefined") as? Bool == true)
        #expect(try browser.evaluate("document.querySelectorAll('img').length") as? Int == 0)
        #expect(try browser.evaluate("document.scripts.length") as? Int == 2)
        #expect(try browser.evaluate("document.getElementById('detail-value').textContent") as? String == hostile)
        let names = try browser.evaluate(
            "[...document.querySelectorAll('#turns li')].map(li => li.textContent).join('\\n')")
        #expect((names as? String ?? "").contains(hostile), "the turn name shows as text")
    }
}

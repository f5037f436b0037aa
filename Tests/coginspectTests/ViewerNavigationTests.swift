import Foundation
import Testing

/// The viewer's second round in a real browser: the view follows what changed, zoom and fit,
/// the turn's change list, a failing test's failure, two recordings side by side, and recorded
/// values that stay text in every new part.
@Suite(
    "HTML viewer: navigation, changes and comparison", .serialized,
    .enabled(if: HeadlessChromium.executable != nil, "needs chromium"))
struct ViewerNavigationTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    private static let ready = "document.body !== null && document.body.dataset.ready === 'true'"

    /// Exports `trace` (beside `other`, when given) to a page with the real `coginspect`.
    private func export(_ trace: String, other: String? = nil) throws -> URL {
        let page = directory.appendingPathComponent("\(UUID().uuidString).html")
        let compare = other.map { " --trace \($0)" } ?? ""
        let outcome = try Executables.coginspect([trace, "-c", "export html --layout dot\(compare) --to \(page.path)"])
        guard outcome.status == 0 else { throw HeadlessChromium.Failure(description: outcome.standardError) }
        return page
    }

    private func open(
        _ page: URL, fragment: String = "", width: Int = 1500, height: Int = 950
    ) throws
        -> HeadlessChromium
    {
        let browser = try HeadlessChromium(width: width, height: height)
        let url = try #require(URL(string: page.absoluteString + (fragment.isEmpty ? "" : "#" + fragment)))
        try browser.open(url, until: Self.ready)
        return browser
    }

    private func text(_ browser: HeadlessChromium, _ selector: String) throws -> String {
        try browser.evaluate("(document.querySelector('\(selector)') || {}).textContent || ''") as? String ?? ""
    }

    /// Whether every node the page marked at the current turn lies inside the first pane, on screen.
    private let markedNodesInView = """
        (() => {
          const pane = document.querySelector('.pane').getBoundingClientRect();
          const marked = [...document.querySelectorAll('.pane[data-pane="here"] g.node')]
            .filter(g => g.style.display !== 'none' && g.dataset.marks !== '');
          return marked.length > 0 && marked.every(g => { const box = g.getBoundingClientRect();
            return box.left >= pane.left - 1 && box.right <= pane.right + 1 && box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1; });
        })()
        """

    @Test func movingToATurnWhoseChangeIsOutOfSightBringsItIntoView() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try export("Recordings/tour.cogtrace")
        // A small window: the graph is wider and taller than its pane.
        let browser = try open(page, fragment: "turn=1", width: 1100, height: 620)
        // The first later turn all of whose marked nodes lie outside the view as it is now.
        let target =
            try browser.evaluate(
                """
                (() => {
                  const data = JSON.parse(document.getElementById('cog-data').textContent);
                  const [x, y, w, h] = document.getElementById('graph').getAttribute('viewBox').split(' ').map(Number);
                  const outside = slot => { const n = data.nodes[slot]; return n[4] + n[6] / 2 < x || n[4] - n[6] / 2 > x + w || n[5] + n[7] / 2 < y || n[5] - n[7] / 2 > y + h; };
                  for (let pos = 1; pos < data.turns.length; pos++) {
                    const marked = (data.turns[pos].m || []).filter(m => m[1].length).map(m => m[0]);
                    if (marked.length && marked.every(outside)) return pos;
                  }
                  return -1;
                })()
                """) as? Int ?? -1
        #expect(target > 0, "some turn changes only what lies outside the first view")
        let before = try browser.evaluate("document.getElementById('graph').getAttribute('viewBox')") as? String
        _ = try browser.evaluate(
            "(() => { const s = document.getElementById('scrubber'); s.value = \(target); s.dispatchEvent(new Event('input')); })()"
        )
        #expect(try browser.evaluate(markedNodesInView) as? Bool == true)
        let after = try browser.evaluate("document.getElementById('graph').getAttribute('viewBox')") as? String
        #expect(before != after, "the view moved")
        // Already in sight: the next look at the same turn does not move the view.
        try browser.press("ArrowRight", code: 39)
        try browser.press("ArrowLeft", code: 37)
        if try browser.evaluate(markedNodesInView) as? Bool == true {
            let settled = try browser.evaluate("document.getElementById('graph').getAttribute('viewBox')") as? String
            try browser.press("ArrowRight", code: 39)
            try browser.press("ArrowLeft", code: 37)
            #expect(
                try browser.evaluate("document.getElementById('graph').getAttribute('viewBox')") as? String == settled)
        }
    }

    @Test func zoomAndFitChangeTheView() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try export("Recordings/map.cogtrace")
        let browser = try open(page, width: 1100, height: 620)
        let scale = { try browser.evaluate("Number(document.getElementById('graph').dataset.scale)") as? Double ?? 0 }
        let start = try scale()
        try browser.press("+", code: 187)
        #expect(try scale() > start * 1.2)
        try browser.press("-", code: 189)
        try browser.press("-", code: 189)
        #expect(try scale() < start)
        try browser.press("0", code: 48)
        let fitted = try scale()
        let whole =
            try browser.evaluate(
                """
                (() => { const pane = document.querySelector('.pane').getBoundingClientRect();
                  const drawn = document.getElementById('graph').querySelector('g:nth-of-type(3)').getBoundingClientRect();
                  return drawn.left >= pane.left - 1 && drawn.right <= pane.right + 1 && drawn.top >= pane.top - 1 && drawn.bottom <= pane.bottom + 1; })()
                """) as? Bool
        #expect(whole == true, "after fit the whole graph is in the pane (scale \(fitted))")
        // The wheel zooms around the pointer.
        try browser.send(
            "Input.dispatchMouseEvent", ["type": "mouseWheel", "x": 600, "y": 300, "deltaX": 0, "deltaY": -300])
        #expect(try scale() > fitted)
        _ = try browser.evaluate("document.querySelector('.tool[data-tool=\"fit\"]').click()")
        #expect(abs(try scale() - fitted) < 0.001)
    }

    @Test func theChangeListOfTourTurnNineShowsTheWriteAndTheEdges() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try export("Recordings/tour.cogtrace")
        let browser = try open(page, fragment: "turn=9")
        let entries =
            try browser.evaluate("[...document.querySelectorAll('#changes li.change')].map(li => li.textContent)")
            as? [String] ?? []
        #expect(entries.contains { $0.contains("weather.currentZip: 10001 → 94105") }, "\(entries)")
        #expect(entries.contains("edge added: weather.isNiceHere reads weather.isNice[94105]"))
        #expect(entries.contains("edge removed: weather.isNiceHere no longer reads weather.isNice[10001]"))
        // An entry selects its node.
        _ = try browser.evaluate(
            "[...document.querySelectorAll('#changes li.change span.link')].find(s => s.textContent.startsWith('write weather.currentZip')).click()"
        )
        #expect(try text(browser, "#detail-label") == "weather.currentZip")
        #expect(try browser.evaluate("location.hash") as? String == "#turn=9&state=weather.currentZip")
        // The work after turn 7 is its own group, and its node is marked on the graph.
        try browser.open(try #require(URL(string: "about:blank")), until: "document.readyState === 'complete'")
        try browser.open(try #require(URL(string: page.absoluteString + "#turn=7")), until: Self.ready)
        let headings = try browser.evaluate("[...document.querySelectorAll('#changes h4')].map(h => h.textContent)")
        #expect((headings as? [String] ?? []).contains("7+ after the turn"), "\(headings ?? "")")
        let after =
            try browser.evaluate(
                "[...document.querySelectorAll('g.node.after')].map(g => g.dataset.label)") as? [String] ?? []
        #expect(after.contains("weather.forecast[94105]"), "\(after)")
    }

    @Test func aFailingTestsTraceShowsItsFailureAndOpensBeforeIt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try export("Tests/coginspectTests/Fixtures/TipJarTests.theTotalIncludesTheTip.cogtrace")
        let browser = try open(page)
        #expect(try browser.evaluate("document.body.dataset.turn") as? String == "2", "the last turn before it")
        #expect(try text(browser, ".failure-test") == "TipJarTests.theTotalIncludesTheTip")
        #expect(
            try text(browser, ".failure-message").contains("(cogs.peek(totalCentsCog) → 4800) == (expected → 4900)"))
        #expect(try text(browser, ".failure-location") == "TipJarTests/TipJarTests.swift:17")
        #expect(try text(browser, "#changes h4.failure").contains("(expectation)"))
        let tick =
            try browser.evaluate("document.querySelector('#scrubber-marks .tick.failure').title") as? String ?? ""
        #expect(tick.contains("TipJarTests.theTotalIncludesTheTip") && tick.contains("TipJarTests.swift:17"), "\(tick)")
    }

    @Test func twoRecordingsSideBySideOpenAtTheirFirstDivergence() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let changed = directory.appendingPathComponent("tour-nice-from-70.cogtrace")
        let recorded = try Executables.run(
            Executables.productsDirectory.appendingPathComponent("weather"),
            ["record", "tour", "--change", "nice-from-70", "-o", changed.path], input: "")
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let page = try export("Recordings/tour.cogtrace", other: changed.path)
        let terminal = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "diff --trace \(changed.path)"])
        let firstLine = terminal.standardOutput.split(separator: "\n").first { $0.hasPrefix("first divergence") }
        let browser = try open(page)
        #expect(try browser.evaluate("document.querySelectorAll('.pane').length") as? Int == 2)
        let turn = try browser.evaluate("document.body.dataset.turn") as? String ?? ""
        #expect(firstLine?.hasSuffix(" \(turn)") == true, "opens at \(turn); the terminal says \(firstLine ?? "")")
        let differing =
            try browser.evaluate(
                "[...document.querySelectorAll('#differing li')].map(li => li.textContent)") as? [String] ?? []
        #expect(differing.contains { $0.hasPrefix("weather.isNice[94105]: here ") }, "\(differing)")
        for pane in ["here", "other"] {
            let marked =
                try browser.evaluate(
                    "[...document.querySelectorAll('.pane[data-pane=\"\(pane)\"] g.node.differs')].map(g => g.dataset.label)"
                )
                as? [String] ?? []
            #expect(marked.contains("weather.isNice[94105]"), "\(pane): \(marked)")
        }
        let lines =
            try browser.evaluate(
                "[...document.querySelectorAll('#divergence-lines li')].map(li => li.textContent)") as? [String] ?? []
        #expect(lines.contains { terminal.standardOutput.contains($0) } && !lines.isEmpty, "\(lines)")
        // One scrubber moves both.
        try browser.press("ArrowRight", code: 39)
        let captions = try browser.evaluate("[...document.querySelectorAll('.caption')].map(c => c.textContent)")
        #expect(
            (captions as? [String] ?? []).allSatisfy { $0.hasSuffix("turn \(Int(turn)! + 1)") }, "\(captions ?? "")")
    }

    @Test func recordedMarkupStaysTextInTheChangeListAndTheComparison() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = HostileTour.markup
        let trace = directory.appendingPathComponent("hostile.cogtrace")
        try HostileTour.write(to: trace, replacing: [#""t":"94105""#])
        let page = try export(trace.path, other: "Recordings/tour.cogtrace")
        let browser = try open(page, fragment: "turn=9")
        usleep(300_000)  // time for an image's error handler, were one ever created
        #expect(try browser.evaluate("document.body.dataset.pwned === undefined") as? Bool == true)
        #expect(try browser.evaluate("document.querySelectorAll('img').length") as? Int == 0)
        #expect(try browser.evaluate("document.scripts.length") as? Int == 2)
        #expect(try text(browser, "#changes").contains("write weather.currentZip: 10001 → " + hostile))
        #expect(
            try text(browser, "#differing").contains("weather.currentZip: here " + hostile + "; in the other 94105"))
    }
}

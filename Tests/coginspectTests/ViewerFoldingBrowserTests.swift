import CogTraceFixtures
import Foundation
import Testing

/// On a wide graph the page opens with each big keyed family as one node; a click unfolds it in
/// place, the change list selects into a folded family, and focus keeps one state's
/// neighbourhood. Real headless Chromium, the page the real `coginspect` writes.
@Suite(
    "HTML viewer: folded families and focus", .serialized,
    .enabled(if: HeadlessChromium.executable != nil, "needs chromium"))
struct ViewerFoldingBrowserTests {
    private static let ready = "document.body !== null && document.body.dataset.ready === 'true'"

    /// A page of a wide trace: families of 10–40 keys, so every one folds.
    private func widePage(in folder: URL) throws -> URL {
        var shape = SyntheticWideTrace.Shape()
        shape.states = 200
        shape.keysPerFamily = 10...40
        shape.edgesPerState = 3
        shape.turns = 60
        var writer = SyntheticWideTrace(shape: shape)
        let trace = folder.appendingPathComponent("wide.cogtrace")
        _ = try writer.write(to: trace)
        let page = folder.appendingPathComponent("wide.html")
        let outcome = try Executables.coginspect([trace.path, "-c", "export html --layout layered --to \(page.path)"])
        guard outcome.status == 0 else { throw HeadlessChromium.Failure(description: outcome.standardError) }
        return page
    }

    private let shownStates =
        "[...document.querySelectorAll('#graph g.node:not(.family)')].filter(g => g.style.display !== 'none').length"
    private let shownFamilies =
        "[...document.querySelectorAll('#graph g.family')].filter(g => g.style.display !== 'none').map(g => [g.dataset.family, Number(g.dataset.members), g.getAttribute('class')])"

    @Test func aFamilyUnfoldsOnAClickAndFoldsAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try widePage(in: folder)
        let browser = try HeadlessChromium()
        try browser.open(page, until: Self.ready)
        let families = try #require(try browser.evaluate(shownFamilies) as? [[Any]])
        #expect(families.count == SyntheticWideTrace.familySizes(widthShape()).count, "\(families)")
        #expect(try browser.evaluate(shownStates) as? Int == 0, "no state of a folded family is drawn")
        let first = try #require(families.first?[0] as? String)
        let keys = try #require(families.first?[1] as? Int)

        _ = try browser.evaluate(
            "document.querySelector('#graph g.family[data-family=\"\(first)\"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))"
        )
        #expect(try browser.evaluate(shownStates) as? Int == keys)
        #expect(
            try browser.evaluate(
                "document.querySelector('#graph g.family[data-family=\"\(first)\"]').classList.contains('unfolded')")
                as? Bool == true)
        #expect((try browser.evaluate("location.hash") as? String ?? "").contains("unfold=\(first)"))
        // The unfolded states sit in a grid under the family's row: none overlaps another node.
        let overlaps =
            try browser.evaluate(
                """
                (() => { const boxes = [...document.querySelectorAll('#graph g.node')].filter(g => g.style.display !== 'none')
                    .map(g => g.getBBox && g.getCTM() ? (() => { const b = g.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })() : null).filter(Boolean);
                  let found = 0;
                  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                    const [a, b] = [boxes[i], boxes[j]];
                    if (a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1) found++;
                  }
                  return found; })()
                """) as? Int
        #expect(overlaps == 0)

        _ = try browser.evaluate(
            "document.querySelector('#graph g.family[data-family=\"\(first)\"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))"
        )
        #expect(try browser.evaluate(shownStates) as? Int == 0)
    }

    @Test func theChangeListSelectsIntoAFoldedFamilyAndFocusKeepsItsNeighbourhood() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("focus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try widePage(in: folder)
        let browser = try HeadlessChromium()
        try browser.open(page, until: Self.ready)
        // The last turn wrote one source: its line in the change list selects it.
        let label = try #require(
            try browser.evaluate("document.querySelector('#changes .change .link').dataset.state") as? String)
        _ = try browser.evaluate("document.querySelector('#changes .change .link').click()")
        #expect(try browser.evaluate("document.getElementById('detail-label').textContent") as? String == label)
        let family = String(label.prefix { $0 != "[" })
        #expect(
            try browser.evaluate(
                "document.querySelector('#graph g.family[data-family=\"\(family)\"]').classList.contains('unfolded')")
                as? Bool == true, "selecting a state unfolds its family")
        let before = try #require(try browser.evaluate(shownStates) as? Int)

        try browser.press("f", code: 70)
        #expect((try browser.evaluate("location.hash") as? String ?? "").contains("focus=2"))
        // Two edges away through a folded family reaches the family's every reader: one edge
        // away is the state and the families it touches.
        try browser.press("[", code: 219)
        #expect((try browser.evaluate("location.hash") as? String ?? "").contains("focus=1"))
        let inFocus = try #require(try browser.evaluate(shownStates) as? Int)
        #expect(inFocus >= 1 && inFocus < before, "focus shows \(inFocus) of \(before) states")
        #expect(
            try browser.evaluate(
                "document.querySelector('#graph g.node[data-label=\"\(label)\"]').style.display") as? String == "")
        let caption = try browser.evaluate("document.querySelector('.caption').textContent") as? String ?? ""
        #expect(caption.contains("focus: \(label), depth 1"), "\(caption)")
        try browser.press("f", code: 70)
        #expect(try browser.evaluate(shownStates) as? Int == before)
    }

    @Test func aPageExportedWithFocusOpensOnThatStatesNeighbourhood() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("focus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("tour.html")
        let outcome = try Executables.coginspect([
            "Recordings/tour.cogtrace", "-c",
            "export html --layout layered --focus weather.isNiceHere --depth 1 --to \(page.path)",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let browser = try HeadlessChromium()
        try browser.open(page, until: Self.ready)
        #expect(
            try browser.evaluate("document.getElementById('detail-label').textContent") as? String
                == "weather.isNiceHere")
        #expect((try browser.evaluate("location.hash") as? String ?? "").contains("focus=1"))
        let shown = try #require(try browser.evaluate(shownStates) as? Int)
        #expect(shown >= 2)
        try browser.press("f", code: 70)
        let all = try #require(try browser.evaluate(shownStates) as? Int)
        #expect(all > shown, "focus showed \(shown) of \(all)")
    }

    private func widthShape() -> SyntheticWideTrace.Shape {
        var shape = SyntheticWideTrace.Shape()
        shape.states = 200
        shape.keysPerFamily = 10...40
        return shape
    }
}

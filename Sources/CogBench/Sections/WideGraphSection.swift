import CogCommandLine
import CogInspector
import CogInspectorExport
import CogTraceFixtures
import CogTraceStore
import Foundation

/// The inspector on a wide graph: a synthetic trace of thousands of states in keyed families
/// (`SyntheticWideTrace`), then what a person runs on it. In process, after the trace is open:
/// `state`, `deps`, `why`, `diff`, `turn N`, `leases`, `history` and `sql`. As whole runs of the release `coginspect`: `export html`
/// with its defaults (its time and size), `export dot` (folded by default), and Graphviz's
/// `dot -Tsvg` on that output when Graphviz is installed. docs/performance.md has the targets.
enum WideGraphSection {
    static func run(
        shape: SyntheticWideTrace.Shape, samples: Int, kind: String = "keyed families", drawsSVG: Bool = true
    ) throws -> [Measurement] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cog-bench-wide-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("wide.cogtrace")
        var synthetic = SyntheticWideTrace(shape: shape)
        let fileBytes = try synthetic.write(to: url)
        let name = "\(shape.states) states, \(kind)"
        var measurements: [Measurement] = []
        func record(_ variant: String, _ samples: [Double], unit: String = "ms") -> Measurement {
            let measurement = Measurement(
                section: "widegraph", name: name, variant: variant, unit: unit, samples: samples)
            measurements.append(measurement)
            return measurement
        }

        let clock = ContinuousClock()
        let loadStart = clock.now
        guard let trace = try? TraceFile.load(contentsOf: url) else {
            throw BenchFailure("the wide synthetic trace did not load")
        }
        let load = clock.now - loadStart
        let session = InspectorSession(trace: trace, source: url.lastPathComponent, catalog: .standard)
        let turns = session.turns
        guard let lastTurn = turns.last, let firstTurn = turns.first else {
            throw BenchFailure("the wide synthetic trace has no turns")
        }
        // A reader in the last family: its `why` walks back through every earlier family.
        let (source, reader) = SyntheticWideTrace.landmarks(shape)
        var generator = SeededGenerator(seed: 7)
        let randomTurn = { turns[Int.random(in: 0..<turns.count, using: &generator)] }
        /// Times `command` `count` times, each after moving the cursor to a random turn (untimed).
        func timed(_ variant: String, _ count: Int, _ command: String, moving: Bool = true) -> Measurement {
            var times: [Double] = []
            for _ in 0..<count {
                if moving { _ = try? session.execute("goto \(randomTurn())") }
                let start = clock.now
                if let result = try? session.execute(command) {
                    // A streamed answer is found as it is read: read it all, as batch output does.
                    for case .streamedTable(_, let stream) in result.report { while stream.next() != nil {} }
                }
                times.append((clock.now - start).milliseconds)
            }
            return record(variant, times)
        }
        let firstState = timed("state (first)", 1, "state \(reader)", moving: false)
        let state = timed("state", samples, "state \(reader)")
        let deps = timed("deps", samples, "deps \(reader)")
        let firstWhy = timed("why (first)", 1, "why \(reader)", moving: false)
        let why = timed("why", samples, "why \(reader)")
        let whySource = timed("why of a source", samples, "why \(source)")
        let diff = timed("diff first last", max(samples / 10, 1), "diff \(firstTurn) \(lastTurn)")
        let leases = timed("leases", samples, "leases")
        let history = timed("history", max(samples / 10, 1), "history \(source)")
        let sql = timed("sql", max(samples / 10, 1), "sql SELECT count(*) FROM edges", moving: false)
        var turnTimes: [Double] = []
        for _ in 0..<samples {
            let command = "turn \(randomTurn())"
            let start = clock.now
            _ = try? session.execute(command)
            turnTimes.append((clock.now - start).milliseconds)
        }
        let turn = record("turn N", turnTimes)
        _ = record("load + index", [load.milliseconds])

        var rows = [
            ["trace", "\(shape.states) states, \(shape.edgesPerState) edges each, \(shape.turns) turns"],
            ["file", String(format: "%.1f MiB", Double(fileBytes) / 1_048_576)],
            ["load ms", format(load.milliseconds)],
            [
                "state first / p50 / p99 ms",
                "\(format(firstState.median)) / \(format(state.median)) / \(format(state.p99))",
            ],
            ["deps p50 / p99 ms", "\(format(deps.median)) / \(format(deps.p99))"],
            ["why first / p50 / p99 ms", "\(format(firstWhy.median)) / \(format(why.median)) / \(format(why.p99))"],
            ["why of a source p50 / p99 ms", "\(format(whySource.median)) / \(format(whySource.p99))"],
            ["diff first..last p50 ms", format(diff.median)],
            ["turn N / leases p50 ms", "\(format(turn.median)) / \(format(leases.median))"],
            ["history of a source / sql p50 ms", "\(format(history.median)) / \(format(sql.median))"],
        ]

        let inspector = try ProcessRun.inspector(for: "widegraph")
        let page = folder.appendingPathComponent("wide.html")
        // Bounded, since a page of the whole graph is what this section exists to watch.
        let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
        let html = try ProcessRun(
            timeout, ["300", inspector.path, url.path, "-c", "export html --to \(page.path)"], capturesOutput: true)
        let pageBytes = (try? FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int) ?? 0
        _ = record("export html", [html.milliseconds])
        _ = record("export html size", [Double(pageBytes) / 1_048_576], unit: "MiB")
        let laidOut = html.output.contains("laid out by dot") ? "dot" : "layered"
        rows.append([
            "export html ms / MiB / peak MiB",
            "\(format(html.milliseconds)) / \(String(format: "%.1f", Double(pageBytes) / 1_048_576)) / "
                + "\(html.peakKilobytes >> 10) (\(laidOut)\(html.succeeded ? "" : ", failed or past 300 s"))",
        ])
        if html.succeeded { rows += try pageTimings(of: page, record: record) }
        let picture = folder.appendingPathComponent("wide.dot")
        let dot = try ProcessRun(inspector, [url.path, "-c", "export dot --to \(picture.path)"])
        _ = record("export dot", [dot.milliseconds])
        rows.append(["export dot ms (folded)", format(dot.milliseconds) + (dot.succeeded ? "" : " (failed)")])
        if !drawsSVG {
            rows.append([
                "dot -Tsvg ms", "not timed: nothing folds, and dot on this many states is what --layout avoids",
            ])
        } else if let graphviz = ProgramSearch.onPath("dot") {
            let svg = folder.appendingPathComponent("wide.svg")
            let drawn = try ProcessRun(timeout, ["120", graphviz.path, "-Tsvg", "-o", svg.path, picture.path])
            _ = record("dot -Tsvg of the folded export", [drawn.milliseconds])
            rows.append([
                "dot -Tsvg ms (folded)",
                format(drawn.milliseconds) + (drawn.succeeded ? "" : " (failed or past 120 s)"),
            ])
        } else {
            rows.append(["dot -Tsvg ms (folded)", "Graphviz is not installed"])
        }
        print("widegraph (a synthetic trace, \(kind); in-process commands at random turns, \(samples) samples)")
        print(table(["measure", "value"], rows))
        print()
        return measurements
    }

    /// The page in headless Chromium, through `Scripts/page-timing` (three fresh tabs): its
    /// first render and paint, and unfolding its largest family; a row saying why when the
    /// script or Chromium is missing.
    private static func pageTimings(
        of page: URL, record: (String, [Double], String) -> Measurement
    ) throws -> [[String]] {
        let script = URL(fileURLWithPath: "Scripts/page-timing")
        guard FileManager.default.isExecutableFile(atPath: script.path),
            ["chromium", "chromium-browser", "google-chrome"].contains(where: { ProgramSearch.onPath($0) != nil })
        else { return [["page in Chromium", "needs chromium and Scripts/page-timing (run from the package root)"]] }
        let run = try ProcessRun(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["300", script.path, page.path, "--runs", "3", "--unfold-largest"],
            capturesOutput: true)
        var render: [Double] = []
        var paint: [Double] = []
        var unfold: [Double] = []
        var unfolded = ""
        for line in run.output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                continue
            }
            if let value = object["firstRenderMs"] as? Double { render.append(value) }
            if let value = object["firstPaintMs"] as? Double { paint.append(value) }
            if let family = object["unfold"] as? [String: Any], let value = family["ms"] as? Double {
                unfold.append(value)
                unfolded = "\(family["family"] as? String ?? "?"), \(family["keys"] as? Int ?? 0) keys"
            }
        }
        guard !render.isEmpty else { return [["page in Chromium", "failed: \(run.output.prefix(200))"]] }
        let first = record("page first render", render, "ms")
        let painted = record("page first paint", paint, "ms")
        var rows = [["page first render / paint ms (p50 of 3)", "\(format(first.median)) / \(format(painted.median))"]]
        if !unfold.isEmpty {
            let measured = record("page unfold largest family", unfold, "ms")
            rows.append(["unfold the largest family ms (p50 of 3)", "\(format(measured.median)) (\(unfolded))"])
        }
        return rows
    }
}

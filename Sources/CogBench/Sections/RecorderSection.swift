import Cog
import CogTrace
import Foundation

/// The recorder on its own: how many events a second it keeps in ring mode, what streaming
/// costs against untraced runs (until the file is finished, and on the app's own thread), how
/// many bytes a turn takes in a file, how fast a ring is written out; and the runtime's steady
/// state, one source written and one observer notified per turn.
enum RecorderSection {
    /// Measures every shape whose name contains one of `shapes` (all when empty), then the
    /// steady single-source turn.
    static func run(iterations: Int, steadyTurns: Int, shapes: [String] = []) throws -> [Measurement] {
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        var phaseRows: [[String]] = []
        let clock = ContinuousClock()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cog-bench-recorder-\(getpid()).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        let streamFiles = StreamFiles()
        let neighbour = BusyNeighbour()
        defer { neighbour.stop() }
        for shape in runtimeShapes() where isChosen(shape.name, by: shapes) {
            let counter = CountingProbe()
            let counted = Cogs()
            counted.probe = counter
            _ = shape.run(on: counted)
            let ring = measure(section: "recorder", name: shape.name, variant: "ring", iterations: iterations) {
                let cogs = Cogs()
                CogRecorder(configuration: RecorderConfiguration(title: shape.name)).attach(to: cogs)
                _ = shape.run(on: cogs)
            }
            let eventsPerSecond = Double(counter.events) / (ring.median / 1_000)
            // Just before the shape's streamed runs, in the folder they write to.
            let fileCreation = streamFiles.timeCreation(section: "recorder", name: shape.name)
            // The host moves the two vCPUs nearer or further apart from one minute to the next, so
            // the round trip is timed on both sides of the streamed runs.
            let roundTripBlocks = max(3, min(iterations, 9))
            let roundTripBefore = neighbour.roundTrip(
                trips: 2_000, blocks: roundTripBlocks, section: "recorder", name: shape.name, moment: .before)
            let streamed = StreamTiming(shape, section: "recorder", iterations: iterations, files: streamFiles)
            // Just after them, while the host is likely as crowded as it was for them.
            let besideBusy = neighbour.slowdown(of: shape, iterations: iterations, section: "recorder")
            let roundTripAfter = neighbour.roundTrip(
                trips: 2_000, blocks: roundTripBlocks, section: "recorder", name: shape.name, moment: .after)
            let cogs = Cogs()
            let recorder = CogRecorder(configuration: RecorderConfiguration(title: shape.name))
            recorder.attach(to: cogs)
            try recorder.startStreaming(to: url)
            _ = shape.run(on: cogs)
            recorder.finishStreaming()
            let streamedBytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            let bytesPerTurn = Double(streamedBytes) / Double(max(recorder.recordedTurnCount, 1))
            var written = 0
            let write = clock.measure {
                try? recorder.write(to: url)
                written = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            }
            let throughput = Double(written) / 1_048_576 / max(write.milliseconds / 1_000, 1e-9)
            measurements +=
                [
                    Measurement(
                        section: "recorder", name: shape.name, variant: "events per second (ring)", unit: "events/s",
                        samples: [eventsPerSecond]),
                    Measurement(
                        section: "recorder", name: shape.name, variant: "stream ÷ untraced", unit: "ratio",
                        samples: [streamed.streamRatio]),
                    Measurement(
                        section: "recorder", name: shape.name, variant: "stream, app thread ÷ untraced", unit: "ratio",
                        samples: [streamed.appThreadRatio]),
                    besideBusy, roundTripBefore, roundTripAfter,
                ] + streamed.phases.measurements + [
                    fileCreation,
                    Measurement(
                        section: "recorder", name: shape.name, variant: "bytes per turn (stream)", unit: "bytes",
                        samples: [bytesPerTurn]),
                    Measurement(
                        section: "recorder", name: shape.name, variant: "write(to:) throughput", unit: "MiB/s",
                        samples: [throughput]),
                ]
            rows.append([
                shape.name, "\(counter.events)", String(format: "%.1f", eventsPerSecond / 1e6),
                String(format: "%.2f", streamed.streamRatio), String(format: "%.2f", streamed.appThreadRatio),
                String(format: "%.2f", besideBusy.median),
                String(format: "%.0f/%.0f", roundTripBefore.median, roundTripAfter.median),
                String(format: "%.0f", fileCreation.median * 1_000), String(format: "%.0f", bytesPerTurn),
                String(format: "%.0f", throughput),
            ])
            let phases = streamed.phases
            phaseRows.append(
                [shape.name]
                    + [phases.start, streamed.appThread, phases.finish, phases.teardown, phases.untracedTeardown].map {
                        String(format: "%.0f", $0.median * 1_000)
                    })
        }
        print(
            "recorder (ring mode kept in memory; stream and write(to:) into temporary files; stream × until the"
                + " file is finished (each run's file made empty beforehand, its creation timed apart as new file µs),"
                + " app × the turns alone, each against untraced runs timed beside them; busy"
                + " neighbour ×: untraced runs with another thread spinning on the other core against runs without,"
                + " timed just after, which says how much this host slows a thread for a second one busy beside"
                + " it, as the stream's writer is; round trip ns: a value sent to a thread on the other core and"
                + " back, timed just before the streamed runs and just after, the price of every cache line the"
                + " app's thread and the writer's pass between them; new file µs:"
                + " creating a file in the streamed files' folder just before, median of"
                + " \(StreamFiles.creationSamples))")
        print(
            table(
                [
                    "shape", "events per run", "M events/s", "stream ×", "stream app ×", "busy neighbour ×",
                    "round trip ns",
                    "new file µs",
                    "bytes per turn",
                    "write MiB/s",
                ],
                rows))
        print()
        print(
            "where a streamed run's time goes (µs, medians of the same runs: making the runtime and recorder and"
                + " starting the stream, the turns, finishing the file, releasing the runtime and recorder; last, an"
                + " untraced run's release of its runtime)")
        print(table(["shape", "start", "turns", "finish", "teardown", "untraced teardown"], phaseRows))
        print()
        measurements += steadyTurn(turns: steadyTurns)
        return measurements
    }

    /// One source, one automatic state reading it, a UI read pinning that state: each turn writes
    /// the source, recomputes, and notifies the boundary.
    static func steadyTurn(turns: Int) -> [Measurement] {
        let source = Cog<Int>.Manual(name: "steady.source") { 0 }
        let doubled = Cog<Int>(name: "steady.doubled") { c in c[source] * 2 }
        var rows: [[String]] = []
        var measurements: [Measurement] = []
        for variant in ["untraced", "ring"] {
            let cogs = Cogs()
            if variant == "ring" { CogRecorder(configuration: RecorderConfiguration(title: "steady")).attach(to: cogs) }
            _ = cogs[doubled]
            // Warm up past the ring's capacity, so a recorder's memory has reached its bound.
            for value in 1...20_000 { cogs.turn(source, to: value) }
            let residentBefore = Memory.residentBytes()
            let elapsed = ContinuousClock().measure {
                for value in 1...turns { cogs.turn(source, to: value) }
            }
            let residentGrowth = Double(Memory.residentBytes() - residentBefore) / Double(turns)
            let nanoseconds = elapsed.milliseconds * 1e6 / Double(turns)
            measurements += [
                Measurement(
                    section: "runtime", name: "steady single-source turn", variant: variant, unit: "ns/turn",
                    samples: [nanoseconds]),
                Measurement(
                    section: "runtime", name: "steady single-source turn", variant: "\(variant) resident growth",
                    unit: "bytes/turn", samples: [residentGrowth]),
            ]
            rows.append([variant, String(format: "%.0f", nanoseconds), String(format: "%.2f", residentGrowth)])
        }
        print("steady single-source turn (\(turns) turns: write, recompute, notify a pinned reader)")
        print(table(["variant", "ns per turn", "resident growth, bytes per turn"], rows))
        print()
        return measurements
    }
}

/// Counts the events a run produces.
final class CountingProbe: CogProbe {
    var events = 0

    func record(_ event: consuming CogProbeEvent) {
        events += 1
    }

    func signal(_ signal: CogProbeSignal) {
        events += 1
    }

    func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {
        events += 1
    }

    func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {
        events += 1
    }

    func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        events += 1
    }

    func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        events += 1
    }

    func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        events += 1
    }
}

package import CogTraceFormat
package import Foundation

/// Writes a Weather-like `.cogtrace` of any length without running an app: the sample app's
/// states for a dozen ZIPs, and a cycle of turns like the app's (a refresh starting, a forecast
/// arriving and rippling through `isSunny`, `isNice` and `isNiceHere`, the current ZIP moving and
/// re-wiring `isNiceHere`), with a keyframe every `keyframeInterval` turns. Deterministic, so
/// every run measures the same file.
package struct SyntheticWeatherTrace {
    package let turns: Int
    package let zipCount = 12
    package let keyframeInterval = 1_000
    /// The CI run the header names, for a fleet of traces (`fleet`); none by default.
    package var runMetadata: TraceRunMetadata?

    private var ids: [String: NodeID] = [:]
    private var nextID = 1
    private var graph = GraphSnapshot()
    private var turnsWritten = 0
    private var keyframesWritten = 0

    package init(turns: Int) {
        self.turns = turns
    }

    private func zip(_ index: Int) -> String { String(10001 + index * 7) }

    /// Writes the trace to `url`; returns its size in bytes.
    package mutating func write(to url: URL) throws -> Int {
        var file = try LineFile(creating: url)
        defer { file.close() }
        writeOpening(to: &file.lines)
        for sequence in 1...turns {
            writeTurn(sequence, to: &file.lines)
            try file.flush(ifLargerThan: 1 << 20)
        }
        writeTrailer(to: &file.lines)
        try file.flush()
        return file.size
    }

    /// The header and the state table, each line ending in a line feed.
    package mutating func writeOpening(to lines: inout String) {
        var header = TraceHeader(
            runID: "synthetic", title: "synthetic weather \(turns)", clock: "virtual", mode: "ring",
            capacity: turns, keyframeInterval: keyframeInterval)
        header.ci = runMetadata
        header.jsonValue.write(to: &lines)
        lines += "\n"
        for info in declareStates() {
            info.jsonValue.write(to: &lines)
            lines += "\n"
        }
    }

    /// Turn `sequence`'s record, after the keyframe that stands before it when one is due.
    /// Turns must be written in order, from 1.
    package mutating func writeTurn(_ sequence: Int, to lines: inout String) {
        if (sequence - 1) % keyframeInterval == 0 {
            graph.keyframeJSONValue(before: sequence).write(to: &lines)
            lines += "\n"
            keyframesWritten += 1
        }
        let turn = makeTurn(sequence)
        for event in turn.events { graph.apply(event) }
        turn.jsonValue.write(to: &lines)
        lines += "\n"
        turnsWritten = sequence
    }

    /// The trailer, for the turns written so far.
    package func writeTrailer(to lines: inout String) {
        TraceTrailer(ok: true, turns: turnsWritten, evicted: 0, dropped: 0, keyframes: keyframesWritten).jsonValue
            .write(to: &lines)
        lines += "\n"
    }

    /// The state table, and the graph as the app stands after start-up.
    private mutating func declareStates() -> [TraceStateInfo] {
        var infos: [TraceStateInfo] = []
        func declare(_ declaration: String, key: String?, shape: StateShape, type: String, value: TraceValue?) {
            let id = NodeID(nextID)
            nextID += 1
            let label = key.map { "\(declaration)[\($0)]" } ?? declaration
            ids[label] = id
            infos.append(
                TraceStateInfo(
                    id: id, label: label, declaration: declaration, key: key, shape: shape,
                    valueType: type,
                    lifetime: shape == .manual ? .app : StateLifetime(rawValue: "whileObserved(30.0 seconds)"),
                    policy: shape == .async ? .latest : nil))
            graph.apply(.stateCreated(state: id, value: value))
        }
        declare("weather.currentZip", key: nil, shape: .manual, type: "Optional<ZipCode>", value: text(zip(0)))
        for index in 0..<zipCount {
            declare(
                "weather.forecast", key: zip(index), shape: .async, type: "Optional<WeatherReading>",
                value: reading(60))
            declare("weather.isSunny", key: zip(index), shape: .automatic, type: "Bool", value: flag(true))
            declare("weather.isNice", key: zip(index), shape: .automatic, type: "Bool", value: flag(true))
            graph.apply(
                .dependencies(consumer: id("weather.isSunny", index), producers: [id("weather.forecast", index)]))
            graph.apply(
                .dependencies(
                    consumer: id("weather.isNice", index),
                    producers: [id("weather.forecast", index), id("weather.isSunny", index)]))
        }
        declare("weather.isNiceHere", key: nil, shape: .automatic, type: "Bool", value: flag(true))
        graph.apply(
            .dependencies(
                consumer: ids["weather.isNiceHere"]!, producers: [ids["weather.currentZip"]!, id("weather.isNice", 0)]))
        return infos
    }

    private func id(_ declaration: String, _ index: Int) -> NodeID { ids["\(declaration)[\(zip(index))]"]! }

    /// Turn `sequence` of a cycle of three: a refresh of one ZIP starts, its forecast arrives, and
    /// every fourth cycle the current ZIP moves to it.
    private func makeTurn(_ sequence: Int) -> TraceTurn {
        let cycle = (sequence - 1) / 3
        let index = cycle % zipCount
        let forecast = id("weather.forecast", index)
        let sunny = id("weather.isSunny", index)
        let nice = id("weather.isNice", index)
        let generation = cycle / zipCount + 2
        let label = "weather.forecast[\(zip(index))]"
        switch (sequence - 1) % 3 {
        case 0:
            return TraceTurn(
                sequence: TurnNumber(sequence), name: "\(label) pending", origin: .asyncCompletion, cause: nil,
                start: sequence * 1_000, duration: 40,
                events: [
                    .generationStarted(state: forecast, generation: generation, policy: .latest),
                    .asyncStatus(state: forecast, kind: .pending, isLoading: true, hasSucceeded: true, error: nil),
                    .notice(state: forecast),
                ])
        case 1:
            let temperature = 55 + (cycle * 7) % 45
            let old = graph.states[forecast]?.value ?? reading(60)
            let isNice = temperature > 60 && temperature < 90
            var events: [TraceEvent] = [
                .write(state: forecast, old: old, new: reading(temperature)),
                .generationAccepted(state: forecast, generation: generation, outcome: "success"),
                .asyncStatus(state: forecast, kind: .success, isLoading: false, hasSucceeded: true, error: nil),
                .recompute(state: sunny, old: flag(true), new: flag(true), changed: false, trigger: forecast),
                .recompute(
                    state: nice, old: graph.states[nice]?.value, new: flag(isNice),
                    changed: graph.states[nice]?.value != flag(isNice), trigger: forecast),
                .notice(state: forecast),
            ]
            if graph.states[ids["weather.isNiceHere"]!]?.dependencies.contains(nice) == true {
                events.append(
                    .recompute(
                        state: ids["weather.isNiceHere"]!, old: graph.states[ids["weather.isNiceHere"]!]?.value,
                        new: flag(isNice), changed: true, trigger: nice))
            }
            return TraceTurn(
                sequence: TurnNumber(sequence), name: "\(label) success", origin: .asyncCompletion, cause: nil,
                start: sequence * 1_000, duration: 120, events: events)
        default:
            let here = ids["weather.isNiceHere"]!
            let current = ids["weather.currentZip"]!
            let previous = graph.states[here]?.dependencies.last ?? nice
            var events: [TraceEvent] = [
                .write(state: current, old: graph.states[current]?.value ?? text(zip(0)), new: text(zip(index)))
            ]
            if previous != nice {
                events += [
                    .edgeAdded(consumer: here, producer: nice), .edgeRemoved(consumer: here, producer: previous),
                    .dependencies(consumer: here, producers: [current, nice]),
                ]
            }
            events += [
                .recompute(
                    state: here, old: graph.states[here]?.value, new: graph.states[nice]?.value, changed: true,
                    trigger: current), .notice(state: current),
            ]
            return TraceTurn(
                sequence: TurnNumber(sequence), name: "selectLocation(_:)", origin: .op, cause: nil,
                start: sequence * 1_000, duration: 60, events: events)
        }
    }

    private func reading(_ temperature: Int) -> TraceValue {
        let condition = temperature > 70 ? "clear" : "cloudy"
        return TraceValue(
            text: "\(condition) \(temperature)°F",
            json: .object([
                ("condition", .string(condition)), ("heatAdvisory", .bool(temperature > 92)),
                ("temperatureF", .int(temperature)),
            ]))
    }

    private func flag(_ value: Bool) -> TraceValue { TraceValue(text: value ? "true" : "false", json: .bool(value)) }
    private func text(_ value: String) -> TraceValue { TraceValue(text: value, json: .string(value)) }
}

import CogTraceFormat
import CogTraceStore

extension CommandCatalog {
    /// `export test FILE.swift`: the recording as a Swift Testing test of today's code.
    static let testFormat = ExportFormat(
        name: "test", usage: "test FILE.swift", takesPath: true,
        valueFlags: ["--turns", "--name", "--check", "--assembly"],
        synopsisFlags: " [--name NAME] [--check derived|all] [--assembly TYPE]",
        summary: "test FILE.swift writes a Swift Testing test that replays the recording's inputs against today's "
            + "code through the CogReplayAssembly TYPE in the app's test target (the recording's label prefix + "
            + "Assembly by default, e.g. TipJarAssembly) and checks after each of the turns --turns A..B gives (all by default) the "
            + "derived states' values, or with --check all everything diff --trace compares; --name names the test"
    ) { session, arguments, destination throws(InspectorError) in
        let output = try OutputFile.checked(destination, force: arguments.switches.contains("--force"))
        for flag in ["--turn", "--focus", "--depth", "--unfold"] where arguments.options[flag] != nil {
            throw InspectorError("export test replays whole turns; \(flag) does not apply (use --turns A..B)")
        }
        let export = try session.replayTestExport(arguments)
        let delivered = try session.deliver(
            export.render(), to: output,
            summary: "a replay test of turns \(export.turns.lowerBound)..\(export.turns.upperBound) "
                + "(\(export.name), checking \(export.check), assembled by \(export.assembly))")
        // Said now, not when the test first runs: what the recording needs that no replay can give.
        // (A file written to standard output says it in its header only, so it stays Swift.)
        guard !export.unanswerable.isEmpty, destination != nil else { return delivered }
        let list = export.unanswerable.map { "\($0.declaration): \($0.valueType)" }.joined(separator: ", ")
        return delivered + [
            .warning(
                "the test cannot replay yet: async results recorded as text only (\(list)); make the types Codable "
                    + "and record again")
        ]
    }
}

extension CommandContext {
    /// The largest recording `export test` embeds: a test file is compiled, and past this size
    /// a narrower `--turns` serves better.
    static let replayTestTurnLimit = 100_000

    /// What `export test` writes for `arguments`, checked against the recording.
    func replayTestExport(_ arguments: CommandArguments) throws(InspectorError) -> ReplayTestExport {
        guard let first = turns.first, let last = turns.last else {
            throw InspectorError("the recording has no turns; there is nothing to replay")
        }
        if let evicted = trace.trailer?.evicted, evicted > 0 {
            throw InspectorError(
                "the recording's ring evicted \(evicted) turns; a replay test needs the whole run from turn 1 "
                    + "(record with a larger COG_TRACE_CAPACITY)")
        }
        guard first == 1 else {
            throw InspectorError("the recording starts at turn \(first); a replay test needs the whole run from turn 1")
        }
        var range = first...last
        if let text = arguments.options["--turns"] {
            let asked = try CommandArguments.range(text)
            let low = max(asked.lowerBound, first)
            let high = min(asked.upperBound, last)
            guard low <= high, asked.lowerBound <= last, asked.upperBound >= first else {
                throw InspectorError("--turns \(text) is outside the recording's turns \(first)..\(last)")
            }
            range = low...high
        }
        guard range.upperBound.rawValue <= Self.replayTestTurnLimit else {
            throw InspectorError(
                "a replay test embeds the recording through its last turn checked; \(range.upperBound) turns is more "
                    + "than \(Self.replayTestTurnLimit), so give --turns A..B ending at \(Self.replayTestTurnLimit) or before"
            )
        }
        let check = arguments.options["--check"] ?? "derived"
        guard check == "derived" || check == "all" else {
            throw InspectorError("--check takes derived or all, not '\(check)'")
        }
        let name = try replayTestName(arguments.options["--name"])
        let assembly = arguments.options["--assembly"] ?? defaultAssemblyName
        guard
            assembly.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({
                ReplayTestExport.isIdentifier(String($0)) && !ReplayTestExport.isKeyword(String($0))
            })
        else {
            throw InspectorError("--assembly '\(assembly)' is not a Swift type name, e.g. TipJarAssembly")
        }
        let recording: String
        do {
            recording = try trace.text(through: range.upperBound)
        } catch {
            throw malformed(error)
        }
        let textOnly: [TextOnlyInput]
        do {
            textOnly = try trace.textOnlyInputs(through: range.upperBound)
        } catch {
            throw malformed(error)
        }
        return ReplayTestExport(
            check: check, name: name, assembly: assembly, turns: range, recording: recording,
            title: trace.header.title, textOnly: textOnly)
    }

    private func replayTestName(_ given: String?) throws(InspectorError) -> String {
        if let given {
            guard ReplayTestExport.isIdentifier(given) else {
                throw InspectorError("--name '\(given)' is not a Swift function name, e.g. --name replaysCheckout")
            }
            guard !ReplayTestExport.isKeyword(given) else {
                let suggestion = "replays" + given.prefix(1).uppercased() + given.dropFirst()
                throw InspectorError("--name '\(given)' is a Swift keyword; give another, e.g. --name \(suggestion)")
            }
            return given
        }
        return ReplayTestExport.identifier(from: trace.header.title) ?? "replaysRecording"
    }

    /// The recording's most common label prefix as a type: `tipJar.total` → `TipJarAssembly`.
    private var defaultAssemblyName: String {
        var counts: [String: Int] = [:]
        for info in trace.states.values {
            guard let prefix = info.declaration.split(separator: ".").first, info.declaration.contains(".") else {
                continue
            }
            counts[String(prefix), default: 0] += 1
        }
        let prefix = counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
        guard let prefix, let word = ReplayTestExport.identifier(from: prefix) else { return "AppAssembly" }
        return word.prefix(1).uppercased() + word.dropFirst() + "Assembly"
    }
}

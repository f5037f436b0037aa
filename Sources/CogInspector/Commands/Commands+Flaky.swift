import CogTraceFormat
import CogTraceStore

extension CommandCatalog {
    static let flaky: [CommandSpec] = [
        CommandSpec(
            name: "flaky", aliases: [], group: "compare", synopsis: "flaky",
            summary: "with several recordings of one test open (some failing, some passing: coginspect DIR -c flaky), "
                + "the earliest step where every failing run differs from every passing run, and what all failing "
                + "runs did there that no passing run did (async outcomes in their order: a race is an order)",
            example: "flaky", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            guard arguments.positional.isEmpty else { throw InspectorError("flaky takes no arguments") }
            guard !session.companions.isEmpty else {
                throw InspectorError(
                    "flaky compares several recordings of one test; open them together, e.g. "
                        + "'coginspect runs/ -c flaky' with the failing and passing runs' traces in runs/")
            }
            return try session.flakyReport()
        }
        .runningBesideCompanions { _ in [MultiTraceForm(argument: "", usage: "flaky")] }
    ]
}

extension CommandContext {
    /// `flaky`'s answer over this trace and its companions.
    func flakyReport() throws(InspectorError) -> [Report] {
        let runs = ([self] + companions).map { (name: Self.runName($0.source), trace: $0.trace) }
        let separation: FlakySeparation
        do {
            separation = try FlakySeparation(runs)
        } catch {
            switch error {
            case .needsBoth(let failing, let passing):
                throw InspectorError(
                    "flaky needs failing and passing runs of one test; of the \(runs.count) open, \(failing) "
                        + "failed and \(passing) passed (a run failed when its trace holds a failure)")
            case .unreadable(let error): throw InspectorError("cannot compare the runs: \(error)")
            case .cancelled: throw InspectorError.interrupted
            }
        }
        let counts = "\(separation.failing.count) failing and \(separation.passing.count) passing runs"
        var fields = [
            Field("failing runs", .list(separation.failing.map(Cell.text))),
            Field("passing runs", .list(separation.passing.map(Cell.text))),
            Field("steps compared", .integer(separation.positionsCompared)),
        ]
        guard let place = separation.place, let position = separation.position else {
            return [
                .fields(fields),
                .message(
                    "\(counts) do not part before their failures: at every step some failing run did what a passing "
                        + "run did; the failures are the first difference (see 'failures' in a failing run)"),
            ]
        }
        fields.insert(
            Field(
                "parts at",
                separation.turn.map { .turn(TurnReference($0, afterTurn: separation.afterTurn)) } ?? .text(place)),
            at: 0)
        fields.insert(Field("step", .integer(position + 1)), at: 1)
        if let name = separation.turnName { fields.insert(Field("turn name", .text(name)), at: 2) }
        var report: [Report] = [
            .fields(fields),
            .message(
                "\(counts) part first at \(place) (step \(position + 1)): every failing run differs there from every "
                    + "passing run"),
        ]
        if !separation.onlyInFailing.isEmpty {
            report.append(.section("in every failing run, in no passing run", [.lines(separation.onlyInFailing)]))
        }
        if !separation.onlyInPassing.isEmpty {
            report.append(.section("in every passing run, in no failing run", [.lines(separation.onlyInPassing)]))
        }
        for detail in separation.perFailingRun {
            report.append(.section("only in failing run \(detail.run)", [.lines(detail.sentences)]))
        }
        return report
    }

    /// A run's name: its file's name without the folder and the `.cogtrace` ending.
    static func runName(_ source: String) -> String {
        let name = source.split(separator: "/").last.map(String.init) ?? source
        return name.hasSuffix(".cogtrace") ? String(name.dropLast(".cogtrace".count)) : name
    }
}

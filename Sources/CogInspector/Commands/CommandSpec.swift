/// One command: its names, its help, and what it does.
package struct CommandSpec: Sendable {
    package let name: String
    package let aliases: [String]
    package let group: String
    package let synopsis: String
    package let summary: String
    package let example: String
    /// Options that take a value, e.g. `--touching`.
    package let valueFlags: Set<String>
    /// Options that take no value, e.g. `--force`.
    package var switches: Set<String> = []
    /// Words that may come at argument position `index` (0 is the first after the command
    /// name), for completion; nil leaves completion to the session's general rules.
    package var completions: (@Sendable (_ index: Int) -> [String])?
    /// What part of the recording its answer covers, which decides the warnings `execute` adds.
    package var scope: AnswerScope
    /// Rewrites the command for the catalog it is in, e.g. `export` describing the catalog's
    /// formats; nil keeps it as declared.
    package var fitted: (@Sendable (CommandSpec, CommandCatalog) -> CommandSpec)?
    /// The forms of the command that still run with several traces open (`export sqlite FILE`),
    /// told apart by their first argument; nil when the command needs a single trace.
    package var multiTraceForms: (@Sendable (CommandCatalog) -> [MultiTraceForm])?
    package let run: @Sendable (CommandContext, CommandArguments) throws(InspectorError) -> [Report]

    package init(
        name: String, aliases: [String], group: String, synopsis: String, summary: String, example: String,
        valueFlags: Set<String>, switches: Set<String> = [],
        completions: (@Sendable (_ index: Int) -> [String])? = nil, scope: AnswerScope = .throughCursor,
        run: @escaping @Sendable (CommandContext, CommandArguments) throws(InspectorError) -> [Report]
    ) {
        self.name = name
        self.aliases = aliases
        self.group = group
        self.synopsis = synopsis
        self.summary = summary
        self.example = example
        self.valueFlags = valueFlags
        self.switches = switches
        self.completions = completions
        self.scope = scope
        self.run = run
    }

    /// This command, rewritten by `fit` for each catalog it joins.
    package func fitting(_ fit: (@Sendable (CommandSpec, CommandCatalog) -> CommandSpec)?) -> CommandSpec {
        var spec = self
        spec.fitted = fit
        return spec
    }

    /// This command, with the forms `forms` names allowed while several traces are open.
    package func runningBesideCompanions(
        _ forms: (@Sendable (CommandCatalog) -> [MultiTraceForm])?
    ) -> CommandSpec {
        var spec = self
        spec.multiTraceForms = forms
        return spec
    }
}

/// What part of the recording a command's answer is built from, so `execute` knows which of
/// the file's gaps, unreadable turns and missing keyframes to warn of.
package enum AnswerScope: Sendable {
    /// The session's own state: settings, help, and the live commands (which say what they
    /// follow when they stop). No warning about the recording applies.
    case session
    /// The graph up to the cursor: warnings about turns at or before it.
    case throughCursor
    /// The whole recording (`history`, `find`, `info`): warnings about every turn.
    case wholeRecording
}

/// A form of a command that runs with several traces open, e.g. `export sqlite FILE`.
package struct MultiTraceForm: Sendable {
    /// The first argument that selects it: `sqlite`.
    package let argument: String
    /// How messages name it: `export sqlite FILE`.
    package let usage: String

    package init(argument: String, usage: String) {
        self.argument = argument
        self.usage = usage
    }
}

/// One format `export` writes: its name, the options only it takes, its part of `help export`,
/// and the work. The engine brings the graph documents and the timeline; a module that links
/// more (SQLite, the viewer's page) adds its own formats to a catalog.
package struct ExportFormat: Sendable {
    package let name: String
    /// How the format is named with its operand in messages, e.g. `sqlite FILE`.
    package let usage: String
    /// Whether its destination may come as the word after the format (`export tables DIR`) as
    /// well as with `--to`.
    package let takesPath: Bool
    /// Whether it writes every trace open beside the session, so it runs when several are open.
    package let coversCompanions: Bool
    /// Options only this format takes, e.g. `--layout`.
    package let valueFlags: Set<String>
    /// Switches only this format takes, e.g. `--append`.
    package let switches: Set<String>
    /// What the synopsis shows of `valueFlags`, e.g. ` [--turns A..B]`.
    package let synopsisFlags: String
    /// Its clause of the export command's description; nil for the engine's own formats, whose
    /// description leads it.
    package let summary: String?
    /// Writes the export to `destination` (the `--to` path or the path word), or returns it as a
    /// document when there is none.
    package let run:
        @Sendable (CommandContext, CommandArguments, _ destination: String?) throws(InspectorError) -> [Report]

    package init(
        name: String, usage: String? = nil, takesPath: Bool = false, coversCompanions: Bool = false,
        valueFlags: Set<String> = [], switches: Set<String> = [], synopsisFlags: String = "", summary: String?,
        run: @escaping @Sendable (CommandContext, CommandArguments, String?) throws(InspectorError) -> [Report]
    ) {
        self.name = name
        self.usage = usage ?? name
        self.takesPath = takesPath
        self.coversCompanions = coversCompanions
        self.valueFlags = valueFlags
        self.switches = switches
        self.synopsisFlags = synopsisFlags
        self.summary = summary
        self.run = run
    }
}

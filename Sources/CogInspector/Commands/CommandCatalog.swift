/// The commands a session runs and the formats its `export` writes, in the order `help` lists
/// them. `core` is what this module does alone; CogInspectorExport's `standard` adds `sql` and
/// the exports that need SQLite or carry the viewer, so a client that does not want them links
/// neither.
public struct CommandCatalog: Sendable {
    package private(set) var commands: [CommandSpec]
    package private(set) var exportFormats: [ExportFormat]

    /// The engine's own commands, with `export` writing DOT, Mermaid, node-link JSON and the
    /// Chrome/Perfetto timeline.
    public static let core = CommandCatalog(
        commands: orient + failures + travel + look + explain + compare + flaky + export + live,
        exportFormats: graphFormats + [testFormat])

    private init(commands: [CommandSpec], exportFormats: [ExportFormat]) {
        self.commands = commands
        self.exportFormats = exportFormats
        describeExport()
    }

    /// Lets each command that depends on the catalog (`export` on its formats) rewrite itself.
    private mutating func describeExport() {
        let catalog = self
        commands = commands.map { spec in spec.fitted?(spec, catalog) ?? spec }
    }

    /// This catalog with `commands` (each after the last one of its group, or at the end for a
    /// new group) and `exportFormats` (after the ones it has).
    package func adding(commands added: [CommandSpec], exportFormats formats: [ExportFormat]) -> CommandCatalog {
        var catalog = self
        for spec in added {
            let position = catalog.commands.lastIndex { $0.group == spec.group }.map { $0 + 1 }
            catalog.commands.insert(spec, at: position ?? catalog.commands.endIndex)
        }
        catalog.exportFormats += formats
        catalog.describeExport()
        return catalog
    }

    /// The command `word` names: its full name, an alias, or a unique prefix.
    func resolve(_ word: String) throws(InspectorError) -> CommandSpec {
        if let exact = commands.first(where: { $0.name == word || $0.aliases.contains(word) }) { return exact }
        let prefixed = commands.filter { $0.name.hasPrefix(word) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            throw InspectorError("'\(word)' could be \(prefixed.map(\.name).joined(separator: ", ")); type more of it")
        }
        if let suggestion = closestMatch(to: word, among: commands.map(\.name)) {
            throw InspectorError("unknown command '\(word)'; did you mean '\(suggestion)'?")
        }
        throw InspectorError("unknown command '\(word)'; 'help' lists the commands")
    }

    /// Every name and alias, for completion.
    var names: [String] { commands.flatMap { [$0.name] + $0.aliases } }

    /// The export formats' names as a sentence's list: `dot, mermaid or json`.
    var exportFormatList: String {
        let names = exportFormats.map(\.name)
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The export format named `name`.
    func exportFormat(_ name: String) throws(InspectorError) -> ExportFormat {
        guard let format = exportFormats.first(where: { $0.name == name }) else {
            throw InspectorError("unknown export format '\(name)'; expected \(exportFormatList)")
        }
        return format
    }
}

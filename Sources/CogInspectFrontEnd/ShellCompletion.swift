import CogInspector
import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation

/// Shell completion for the `coginspect` command line, in the way Swift tools built with
/// swift-argument-parser offer it: `coginspect --completion-script bash|zsh|fish` prints a
/// script for the shell, and the script asks `coginspect --complete WORDS… CURRENT` what may
/// come next. Inside `-c '…'` that is the inspector's own completion (command names, options,
/// state labels from the trace named earlier on the line); elsewhere the options; trace paths
/// are left to the shell's file completion.
enum ShellCompletion {
    /// The shells a script is written for.
    static let shells = ["bash", "zsh", "fish"]

    /// The command line's options, as completion offers them.
    static let options = [
        "-c", "--command", "-f", "--file", "--json", "--keep-going", "--no-index", "--follow", "--until", "--reopen",
        "--completion-script", "-h", "--help", "--version",
    ]

    /// Options whose next word is their value, not a trace.
    private static let optionsWithValues: Set = ["-c", "--command", "-f", "--file", "--until", "--completion-script"]

    /// The completion script for `shell`, or nil for a shell there is none for.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    /// What may replace the last of `words` (the word being completed, as the shell gives it:
    /// inside `-c '…'`, the command typed so far), one candidate per element. The words before
    /// it are the command line after the program's name.
    static func candidates(for words: [String], defaultTrace: String) -> [String] {
        guard let current = words.last else { return options }
        let earlier = words.dropLast()
        if let previous = earlier.last, previous == "-c" || previous == "--command" {
            return commandCandidates(for: current, trace: tracePath(in: Array(earlier)) ?? defaultTrace)
        }
        if let previous = earlier.last, previous == "--completion-script" {
            return shells.filter { $0.hasPrefix(current) }
        }
        return current.hasPrefix("-") ? options.filter { $0.hasPrefix(current) } : []
    }

    /// The first trace the words name: a word that is not an option or an option's value, its
    /// quotes removed; a directory stands for its first `.cogtrace` file.
    static func tracePath(in words: [String]) -> String? {
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsWithValues.contains(word) {
                index += 1
                continue
            }
            guard !word.hasPrefix("-") else { continue }
            var path = word.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            if path.hasPrefix("~/") { path = NSHomeDirectory() + path.dropFirst() }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return path }
            guard isDirectory.boolValue else { return path }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            return names.filter { $0.hasSuffix(".cogtrace") }.min().map {
                (path as NSString).appendingPathComponent($0)
            }
        }
        return nil
    }

    /// Completions of a command line typed so far, each the whole line with its last word
    /// completed (what the shell puts in place of the word). A quote the shell left on the
    /// word is kept on every candidate.
    private static func commandCandidates(for typed: String, trace path: String) -> [String] {
        let quote = typed.first.map { $0 == "'" || $0 == "\"" } == true ? String(typed.prefix(1)) : ""
        let line = String(typed.dropFirst(quote.count))
        let endsWord = line.isEmpty || line.hasSuffix(" ")
        var words = line.split(separator: " ").map(String.init)
        let prefix = endsWord ? "" : (words.popLast() ?? "")
        let head = endsWord ? line : String(line.dropLast(prefix.count))
        // The trace is read only when the command needs it: a command name never does.
        guard !words.isEmpty else {
            return CommandCatalog.standard.commands.map(\.name).filter { $0.hasPrefix(prefix) }.sorted().map {
                quote + head + $0
            }
        }
        guard
            let trace = try? TraceFile.load(
                contentsOf: URL(fileURLWithPath: path), memoryBudget: .standard, progress: { _ in },
                index: .automatic, note: { _ in })
        else { return [] }
        let session = InspectorSession(trace: trace, source: path, catalog: .standard)
        return session.completions(for: prefix, after: words).map { quote + head + $0 }
    }
}

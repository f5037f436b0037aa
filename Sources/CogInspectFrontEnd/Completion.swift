import CReadline
import CogInspector
import Foundation

/// Tab completion for readline. Readline calls plain C functions, which cannot capture, so the
/// candidates live in a global that only the main thread touches: `readline()` runs on the main
/// thread and calls back synchronously on it, and nothing else reads or writes these.
enum Completion {
    nonisolated(unsafe) private static var candidates: [String] = []
    nonisolated(unsafe) private static var matches: [String] = []
    nonisolated(unsafe) private static var nextMatch = 0
    nonisolated(unsafe) private static var provider: ((String, [String]) -> [String])?

    static func install(for session: InspectorSession) {
        provider = { prefix, words in session.completions(for: prefix, after: words) }
        cog_rl_break_words_at_spaces()
        cog_rl_set_completion { text, start, _ in
            let line = String(cString: cog_rl_line_buffer())
            let before = String(line.utf8.prefix(Int(start))) ?? ""
            let words = before.split(separator: " ").map(String.init)
            Completion.candidates = Completion.provider?(text.map { String(cString: $0) } ?? "", words) ?? []
            cog_rl_set_completion_over(1)
            return rl_completion_matches(text) { text, state in
                if state == 0 {
                    let prefix = text.map { String(cString: $0) } ?? ""
                    Completion.matches = Completion.candidates.filter { $0.hasPrefix(prefix) }
                    Completion.nextMatch = 0
                }
                guard Completion.nextMatch < Completion.matches.count else { return nil }
                defer { Completion.nextMatch += 1 }
                return strdup(Completion.matches[Completion.nextMatch])
            }
        }
    }
}

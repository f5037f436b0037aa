import CogTraceStore
import Foundation

/// A trace file read the plainest way, as the oracle the comparison is held to: every turn and
/// the work after it become a sorted list of canonical event texts, with every id replaced by
/// the label or name the file gives it, and the first step where two files' lists differ is the
/// first divergence. It shares no code with `TraceComparison`.
struct StepListing {
    /// One step's canonical texts: the turn's name and origin first (none for `N+`), then its
    /// events, sorted.
    struct Step: Equatable {
        let turn: Int
        let afterTurn: Bool
        let texts: [String]
    }

    let steps: [Step]

    init(text: String) throws {
        var names: [Int: String] = [:]
        var records: [[String: Any]] = []
        for line in text.split(separator: "\n") {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            records.append(record)
            switch record["type"] as? String {
            case "state": names[record["id"] as? Int ?? -1] = record["label"] as? String
            case "keyframe":
                for registration in record["registrations"] as? [[String: Any]] ?? [] {
                    names[registration["id"] as? Int ?? -1] = registration["name"] as? String
                }
            case "turn", "idle":
                for event in record["events"] as? [[String: Any]] ?? [] {
                    if let id = event["r"] as? Int, let name = event["name"] as? String { names[id] = name }
                }
            default: break
            }
        }
        func canonical(_ event: [String: Any]) throws -> String? {
            guard event["e"] as? String != "deps" else { return nil }
            var named = event
            for key in ["s", "p", "r", "by", "sub"] {
                if let id = event[key] as? Int { named[key] = names[id] ?? "#\(id)" }
            }
            let data = try JSONSerialization.data(withJSONObject: named, options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
        var steps: [Step] = []
        var failures: [Int: [String]] = [:]
        for record in records where record["type"] as? String == "failure" {
            failures[record["after"] as? Int ?? 0, default: []].append(record["message"] as? String ?? "")
        }
        for record in records {
            let events = try (record["events"] as? [[String: Any]] ?? []).compactMap(canonical).sorted()
            switch record["type"] as? String {
            case "turn":
                let turn = record["seq"] as? Int ?? 0
                let heading = "\(record["name"] as? String ?? "") (\(record["origin"] as? String ?? ""))"
                steps.append(Step(turn: turn, afterTurn: false, texts: [heading] + events))
                steps.append(Step(turn: turn, afterTurn: true, texts: failures[turn, default: []].sorted()))
            case "idle" where !steps.isEmpty:
                let last = steps.removeLast()
                steps.append(Step(turn: last.turn, afterTurn: true, texts: (events + last.texts).sorted()))
            default: break
            }
        }
        self.steps = steps
    }

    /// The first step where `other` differs, as (turn here, whether `N+`); nil when every step
    /// agrees and both end together; `(nil, false)` when one file ends first.
    func firstDivergence(from other: StepListing) -> (turn: Int?, afterTurn: Bool)? {
        for (mine, theirs) in zip(steps, other.steps) where mine.texts != theirs.texts {
            return (mine.turn, mine.afterTurn)
        }
        return steps.count == other.steps.count ? nil : (nil, false)
    }
}

import CogTraceFormat

/// Past this many characters, on either side, no edit distance is computed: its cost grows with
/// the product of the lengths, and nobody mistypes a label that long.
let maximumSuggestionLength = 256

/// The candidate closest to `input` by edit distance, if it is close enough to be a typo (or
/// `input` is its prefix).
func closestMatch(to input: String, among candidates: [String]) -> String? {
    let sorted = candidates.sorted()
    if let prefixed = sorted.first(where: { $0.hasPrefix(input) }) { return prefixed }
    guard input.count <= maximumSuggestionLength else { return nil }
    var best: (candidate: String, distance: Int)?
    let limit = max(2, input.count / 3)
    for candidate in sorted where candidate.count <= maximumSuggestionLength {
        let distance = editDistance(input, candidate, limit: limit)
        if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.candidate
}

/// The Levenshtein distance between `a` and `b`, giving up (returning `limit + 1`) past `limit`.
func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let a = Array(a)
    let b = Array(b)
    if abs(a.count - b.count) > limit { return limit + 1 }
    var previous = Array(0...b.count)
    for (i, characterA) in a.enumerated() {
        var current = [i + 1] + Array(repeating: 0, count: b.count)
        var rowMinimum = current[0]
        for (j, characterB) in b.enumerated() {
            current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (characterA == characterB ? 0 : 1))
            rowMinimum = min(rowMinimum, current[j + 1])
        }
        if rowMinimum > limit { return limit + 1 }
        previous = current
    }
    return previous[b.count]
}

/// The counts CI holds each client-shaped run to, in a release build: heap allocations of one
/// whole run (declarations, runtime, reads, turns, teardown) and its selector runs, on both
/// clocks. A change that moves one updates it here in the same commit and says why
/// (docs/performance.md, "Exact counts").
enum ExpectedClientCounts {
    static let table: [String: [BenchClock: ClientCounts]] = [
        "kairo diamond": [
            .production: ClientCounts(allocations: 574, selectorRuns: 3006),
            .forTesting: ClientCounts(allocations: 585, selectorRuns: 3006),
        ],
        "kairo deep": [
            .production: ClientCounts(allocations: 387, selectorRuns: 2550),
            .forTesting: ClientCounts(allocations: 398, selectorRuns: 2550),
        ],
        "kairo broad": [
            .production: ClientCounts(allocations: 645, selectorRuns: 5100),
            .forTesting: ClientCounts(allocations: 656, selectorRuns: 5100),
        ],
        "kairo unstable": [
            .production: ClientCounts(allocations: 147, selectorRuns: 202),
            .forTesting: ClientCounts(allocations: 158, selectorRuns: 202),
        ],
        "cellx lattice": [
            .production: ClientCounts(allocations: 26094, selectorRuns: 8000),
            .forTesting: ClientCounts(allocations: 26105, selectorRuns: 8000),
        ],
        "dynamic sweep": [
            .production: ClientCounts(allocations: 442, selectorRuns: 1440),
            .forTesting: ClientCounts(allocations: 453, selectorRuns: 1440),
        ],
        "keyed diamond": [
            .production: ClientCounts(allocations: 3912, selectorRuns: 3600),
            .forTesting: ClientCounts(allocations: 3923, selectorRuns: 3600),
        ],
        "key churn": [
            .production: ClientCounts(allocations: 3123, selectorRuns: 5511),
            .forTesting: ClientCounts(allocations: 3134, selectorRuns: 5511),
        ],
    ]
}

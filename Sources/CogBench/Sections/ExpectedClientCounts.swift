/// The counts CI holds each client-shaped run to, in a release build: heap allocations of one
/// whole run (declarations, runtime, reads, turns, teardown) and its selector runs, on both
/// clocks. A change that moves one updates it here in the same commit and says why
/// (docs/performance.md, "Exact counts").
enum ExpectedClientCounts {
    static let table: [String: [BenchClock: ClientCounts]] = [
        "kairo diamond": [
            .production: ClientCounts(allocations: 2572, selectorRuns: 3006),
            .forTesting: ClientCounts(allocations: 2581, selectorRuns: 3006),
        ],
        "kairo deep": [
            .production: ClientCounts(allocations: 585, selectorRuns: 2550),
            .forTesting: ClientCounts(allocations: 594, selectorRuns: 2550),
        ],
        "kairo broad": [
            .production: ClientCounts(allocations: 841, selectorRuns: 5100),
            .forTesting: ClientCounts(allocations: 1156, selectorRuns: 5100),
        ],
        "kairo unstable": [
            .production: ClientCounts(allocations: 545, selectorRuns: 202),
            .forTesting: ClientCounts(allocations: 1154, selectorRuns: 202),
        ],
        "cellx lattice": [
            .production: ClientCounts(allocations: 26098, selectorRuns: 8000),
            .forTesting: ClientCounts(allocations: 50100, selectorRuns: 8000),
        ],
        "dynamic sweep": [
            .production: ClientCounts(allocations: 842, selectorRuns: 1440),
            .forTesting: ClientCounts(allocations: 910, selectorRuns: 1440),
        ],
        "keyed diamond": [
            .production: ClientCounts(allocations: 5909, selectorRuns: 3600),
            .forTesting: ClientCounts(allocations: 6526, selectorRuns: 3600),
        ],
        "key churn": [
            .production: ClientCounts(allocations: 6122, selectorRuns: 5511),
            .forTesting: ClientCounts(allocations: 8983, selectorRuns: 5511),
        ],
    ]
}

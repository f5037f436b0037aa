import Foundation

/// One measured scenario: the statistics of its iterations, in the `--json` schema of
/// docs/performance.md.
struct Measurement: Codable {
    let section: String
    let name: String
    let variant: String
    let unit: String
    let median: Double
    let min: Double
    let max: Double
    let count: Int
    /// The 99th percentile, for latencies; not in the JSON.
    var p99: Double = .nan

    enum CodingKeys: String, CodingKey {
        case section, name, variant, unit, median, min, max, count
    }

    init(
        section: String, name: String, variant: String, unit: String, median: Double, min: Double, max: Double,
        count: Int
    ) {
        self.section = section
        self.name = name
        self.variant = variant
        self.unit = unit
        self.median = median
        self.min = min
        self.max = max
        self.count = count
    }

    /// The statistics of `samples`.
    init(section: String, name: String, variant: String, unit: String = "ms", samples: [Double]) {
        let sorted = samples.sorted()
        self.init(
            section: section, name: name, variant: variant, unit: unit, median: Self.median(ofSorted: sorted),
            min: sorted.first!, max: sorted.last!, count: sorted.count)
        p99 = sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }

    /// The median every table reports: the middle sample, the upper of the two middle ones for
    /// an even count. `sorted` must be sorted and not empty.
    static func median(ofSorted sorted: [Double]) -> Double { sorted[sorted.count / 2] }
}

/// Times `body` `iterations` times after one warm-up run and summarises in milliseconds.
func measure(section: String, name: String, variant: String, iterations: Int, _ body: () -> Void) -> Measurement {
    withoutActuallyEscaping(body) { body in
        measureInterleaved(section: section, name: name, iterations: iterations, [(variant, body)])[0]
    }
}

/// Times several variants of one scenario in rotation, one iteration of each in turn, after one
/// warm-up run of each. On a noisy machine a slow spell then lands on every variant alike, so
/// their ratios hold even when the absolute times drift. Each round starts one variant later,
/// so every variant runs equally often right after each other one (a streaming run leaves the
/// caches cold for whatever follows it).
func measureInterleaved(
    section: String, name: String, iterations: Int,
    _ variants: [(variant: String, body: () -> Void)]
) -> [Measurement] {
    guard iterations > 0 else {
        return variants.map {
            Measurement(
                section: section, name: name, variant: $0.variant, unit: "ms", median: .nan, min: .nan,
                max: .nan, count: 0)
        }
    }
    for variant in variants { variant.body() }
    var samples = Array(repeating: [Double](), count: variants.count)
    let clock = ContinuousClock()
    for round in 0..<iterations {
        for step in variants.indices {
            let index = (round + step) % variants.count
            let elapsed = clock.measure(variants[index].body)
            samples[index].append(elapsed.milliseconds)
        }
    }
    return variants.indices.map { index in
        Measurement(section: section, name: name, variant: variants[index].variant, samples: samples[index])
    }
}

/// Formats rows as a fixed-width table with a header rule.
func table(_ header: [String], _ rows: [[String]]) -> String {
    let widths = header.indices.map { column in
        ([header] + rows).map { $0[column].count }.max()!
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            index == 0
                ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[index] - cell.count) + cell
        }.joined(separator: "  ")
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
}

extension Duration {
    /// The duration in milliseconds, as the bench reports times.
    var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}

import BenchmarkInputs
import Foundation
import TapRoute

// The in-process goals' ratios by time, each pair of sides interleaved:
//
//   swift run -c release InterleavedRatios [ROUNDS] [BATCH]     (defaults: 201 rounds of 1000)
//
// - the typical push normalized (bytes to `Interaction`) against the same push only parsed;
// - Bird's three records through Bird re-expressed as a definition against the Swift adapter.
//
// Each round times BATCH runs of one side and BATCH of the other back to back, in alternating
// order, so that a change in the machine's speed — which moves ordo-one/benchmark's
// benchmarks, run one after the other, by tens of percent against each other — slows both
// sides of a round alike. For each pair it prints the median of the rounds' ratios (with its
// quartiles) and each side's fastest and median batch: the ratios as run_bench.sh measures
// the corpus's, in one run (docs/performance.md, "Thirtieth round").

/// Keeps `value` alive and opaque to the optimizer, as the benchmarks' `blackHole` does.
@inline(never)
func keep<T>(_ value: borrowing T) {}

let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
guard arguments.count <= 2, arguments.allSatisfy({ ($0 ?? 0) > 0 }) else {
    print("usage: InterleavedRatios [ROUNDS] [BATCH]")
    exit(64)
}
let rounds = arguments.first.flatMap { $0 } ?? 201
let batch = arguments.dropFirst().first.flatMap { $0 } ?? 1000
// Built before the loops, and kept in this module (see BenchmarkInputs).
let registry = BenchmarkInputs.makeRegistry()
let definitionBirdRegistry = BenchmarkInputs.makeDefinitionBirdRegistry()
let typicalPush = BenchmarkInputs.typicalPush
let birdRecords = BenchmarkInputs.birdRecords

/// Nanoseconds per run of `batch` runs of `body`.
func timed(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<batch { body() }
    let elapsed = start.duration(to: clock.now).components
    return (Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9) / Double(batch)
}

/// The value at quantile `q` (0...1) of `values`.
func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    return sorted[Int((Double(sorted.count - 1) * q).rounded())]
}

/// Times `measured` against `base` in interleaved rounds and prints the ratio.
func compare(_ title: String, measured: (name: String, body: () -> Void), base: (name: String, body: () -> Void)) {
    // A round of each, untimed: the caches, the allocator's free lists and the branch
    // predictors as they are in the rounds that count.
    _ = timed(base.body)
    _ = timed(measured.body)
    var bases: [Double] = []
    var measures: [Double] = []
    var ratios: [Double] = []
    for round in 0..<rounds {
        let b: Double
        let m: Double
        if round % 2 == 0 {
            b = timed(base.body)
            m = timed(measured.body)
        } else {
            m = timed(measured.body)
            b = timed(base.body)
        }
        bases.append(b)
        measures.append(m)
        ratios.append(m / b)
    }
    print(title)
    print(
        String(
            format: "  %@ / %@, median of %d rounds' ratios: %.2f (quartiles %.2f–%.2f); fastest over fastest %.2f",
            measured.name,
            base.name,
            rounds,
            quantile(ratios, 0.5),
            quantile(ratios, 0.25),
            quantile(ratios, 0.75),
            measures.min()! / bases.min()!
        )
    )
    print(String(format: "  %@: fastest %.0f ns, median %.0f ns", measured.name, measures.min()!, quantile(measures, 0.5)))
    print(String(format: "  %@: fastest %.0f ns, median %.0f ns", base.name, bases.min()!, quantile(bases, 0.5)))
}

// Each side must do its work: a record that failed would be timed doing less.
guard (typicalPush.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) != nil,
    birdRecords.allSatisfy({ record in
        record.withUnsafeBufferPointer { bytes in
            (try? registry.normalize(record: bytes)) != nil && (try? definitionBirdRegistry.normalize(record: bytes)) != nil
        }
    })
else {
    print("a benchmark input does not normalize")
    exit(1)
}
print("rounds of \(batch) runs each side, interleaved")
compare(
    "the typical push (goal: normalize ≤ 2× parse)",
    measured: ("normalize", { keep(typicalPush.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }),
    base: ("parse", { keep(typicalPush.withUnsafeBufferPointer { try? JSONParser().parse($0) }) })
)
compare(
    "Bird's 3 records to Interaction (goal: definition ≤ 1.5× Swift adapter)",
    measured: (
        "definition",
        {
            for record in birdRecords { keep(record.withUnsafeBufferPointer { try? definitionBirdRegistry.normalize(record: $0) }) }
        }
    ),
    base: (
        "Swift adapter",
        {
            for record in birdRecords { keep(record.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }
        }
    )
)

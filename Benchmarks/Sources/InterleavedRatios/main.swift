import BenchmarkInputs
import Foundation
import TapRoute

// The in-process goals' ratios by time, each pair of sides interleaved:
//
//   swift run -c release InterleavedRatios [ROUNDS] [BATCH] [--pushes FILE]
//   (defaults: 201 rounds of 1000)
//
// - the typical push normalized (bytes to `Interaction`) against the same push only parsed;
// - Bird's three records through Bird re-expressed as a definition against the Swift adapter;
// - with `--pushes`, the same ratio as the first for each record of a JSON Lines file: one
//   push per vendor as typical_pushes.py picks them from the corpus.
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

// The sides' work, in functions outside the main actor. A closure written in this file's
// top-level code is isolated to the main actor, and Swift 6 checks, each time such a closure
// handed to the standard library (`withUnsafeBufferPointer`'s) is called, that it runs there:
// about 330 instructions and a retain and a release a run, on both sides of every pair
// (PushInstructions, callgrind) — the harness timed, not the library.

/// Normalizes `record` with `registry`.
nonisolated func normalize(_ record: [UInt8], with registry: AdapterRegistry) {
    keep(record.withUnsafeBufferPointer { try? registry.normalize(record: $0) })
}

/// Only parses `record`.
nonisolated func parse(_ record: [UInt8]) {
    keep(record.withUnsafeBufferPointer { try? JSONParser().parse($0) })
}

/// Normalizes each of `records` with `registry`.
nonisolated func normalize(_ records: [[UInt8]], with registry: AdapterRegistry) {
    for record in records { keep(record.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }
}

var words = Array(CommandLine.arguments.dropFirst())
var pushesFile: String?
if let flag = words.firstIndex(of: "--pushes") {
    guard flag + 1 < words.count else {
        print("usage: InterleavedRatios [ROUNDS] [BATCH] [--pushes FILE]")
        exit(64)
    }
    pushesFile = words[flag + 1]
    words.removeSubrange(flag...flag + 1)
}
let arguments = words.map { Int($0) }
guard arguments.count <= 2, arguments.allSatisfy({ ($0 ?? 0) > 0 }) else {
    print("usage: InterleavedRatios [ROUNDS] [BATCH] [--pushes FILE]")
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

/// The times of one pair of sides over the rounds.
struct Comparison {
    var measures: [Double] = []
    var bases: [Double] = []
    var ratios: [Double] = []
}

/// Times `measured` against `base` in interleaved rounds.
func interleave(measured: () -> Void, base: () -> Void) -> Comparison {
    // A round of each, untimed: the caches, the allocator's free lists and the branch
    // predictors as they are in the rounds that count.
    _ = timed(base)
    _ = timed(measured)
    var comparison = Comparison()
    for round in 0..<rounds {
        let b: Double
        let m: Double
        if round % 2 == 0 {
            b = timed(base)
            m = timed(measured)
        } else {
            m = timed(measured)
            b = timed(base)
        }
        comparison.bases.append(b)
        comparison.measures.append(m)
        comparison.ratios.append(m / b)
    }
    return comparison
}

/// Times `measured` against `base` in interleaved rounds and prints the ratio.
func compare(_ title: String, measured: (name: String, body: () -> Void), base: (name: String, body: () -> Void)) {
    let comparison = interleave(measured: measured.body, base: base.body)
    let (measures, bases, ratios) = (comparison.measures, comparison.bases, comparison.ratios)
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
    measured: ("normalize", { normalize(typicalPush, with: registry) }),
    base: ("parse", { parse(typicalPush) })
)
compare(
    "Bird's 3 records to Interaction (goal: definition ≤ 1.5× Swift adapter)",
    measured: ("definition", { normalize(birdRecords, with: definitionBirdRegistry) }),
    base: ("Swift adapter", { normalize(birdRecords, with: registry) })
)

// One push per vendor, each normalized against the same push only parsed.
if let pushesFile {
    guard let text = try? String(contentsOfFile: pushesFile, encoding: .utf8) else {
        print("cannot read \(pushesFile)")
        exit(1)
    }
    print("each push of \(pushesFile): normalize / parse, median of \(rounds) rounds' ratios (quartiles); fastest batches")
    for (number, line) in text.split(separator: "\n").enumerated() {
        let push = Array(line.utf8)
        guard let interaction = push.withUnsafeBufferPointer({ try? registry.normalize(record: $0) }) else {
            print("line \(number + 1) does not normalize")
            exit(1)
        }
        let c = interleave(
            measured: { normalize(push, with: registry) },
            base: { parse(push) }
        )
        print(
            String(
                format: "  %@ (%d bytes): %.2f (%.2f–%.2f); normalize %.0f ns, parse %.0f ns",
                interaction.vendor,
                push.count,
                quantile(c.ratios, 0.5),
                quantile(c.ratios, 0.25),
                quantile(c.ratios, 0.75),
                c.measures.min()!,
                c.bases.min()!
            )
        )
    }
}

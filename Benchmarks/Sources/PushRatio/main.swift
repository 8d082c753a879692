import BenchmarkInputs
import Foundation
import TapRoute

// The typical push normalized (bytes to `Interaction`) against the same push only parsed, by
// time, interleaved:
//
//   swift run -c release PushRatio [ROUNDS] [BATCH]     (defaults: 201 rounds of 1000)
//
// Each round times BATCH parses and BATCH normalizations back to back, in alternating order,
// so that a change in the machine's speed — which moves ordo-one/benchmark's benchmarks, run
// one after the other, by tens of percent against each other — slows both sides of a round
// alike. Prints the median of the rounds' ratios (with its quartiles) and each side's fastest
// and median batch per push: the in-process goal's ratio, measured as run_bench.sh measures
// the corpus's (docs/performance.md, "Thirtieth round").

/// Keeps `value` alive and opaque to the optimizer, as the benchmarks' `blackHole` does.
@inline(never)
func keep<T>(_ value: borrowing T) {}

let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
guard arguments.count <= 2, arguments.allSatisfy({ ($0 ?? 0) > 0 }) else {
    print("usage: PushRatio [ROUNDS] [BATCH]")
    exit(64)
}
let rounds = arguments.first.flatMap { $0 } ?? 201
let batch = arguments.dropFirst().first.flatMap { $0 } ?? 1000
// Built before the loop, and kept in this module (see BenchmarkInputs).
let registry = BenchmarkInputs.makeRegistry()
let typicalPush = BenchmarkInputs.typicalPush

/// Nanoseconds per push of `batch` runs of `body`.
func timed(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<batch { body() }
    let elapsed = start.duration(to: clock.now).components
    return (Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9) / Double(batch)
}
func parse() { keep(typicalPush.withUnsafeBufferPointer { try? JSONParser().parse($0) }) }
func normalize() { keep(typicalPush.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }

guard (typicalPush.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) != nil else {
    print("the typical push does not normalize")
    exit(1)
}
// A round of each, untimed: the caches, the allocator's free lists and the branch predictors
// as they are in the rounds that count.
_ = timed(parse)
_ = timed(normalize)
var parses: [Double] = []
var normalizations: [Double] = []
var ratios: [Double] = []
for round in 0..<rounds {
    let p: Double
    let n: Double
    if round % 2 == 0 {
        p = timed(parse)
        n = timed(normalize)
    } else {
        n = timed(normalize)
        p = timed(parse)
    }
    parses.append(p)
    normalizations.append(n)
    ratios.append(n / p)
}

/// The value at quantile `q` (0...1) of `values`.
func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    return sorted[Int((Double(sorted.count - 1) * q).rounded())]
}
let fastest = (normalize: normalizations.min()!, parse: parses.min()!)
print("rounds: \(rounds) of \(batch) pushes each side, interleaved")
print(String(format: "normalize / parse, median of the rounds' ratios: %.2f (quartiles %.2f–%.2f)", quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75)))
print(String(format: "normalize: fastest %.0f ns, median %.0f ns a push", fastest.normalize, quantile(normalizations, 0.5)))
print(String(format: "parse:     fastest %.0f ns, median %.0f ns a push", fastest.parse, quantile(parses, 0.5)))
print(String(format: "fastest over fastest: %.2f", fastest.normalize / fastest.parse))

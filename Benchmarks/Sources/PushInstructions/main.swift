import BenchmarkInputs
import Foundation
import TapRoute

// Normalizes (`normalize`) or only parses (`parse`) the in-process benchmarks' typical push N
// times — or normalizes Bird's three records N times with the Swift adapter (`bird`) or with
// Bird re-expressed as a definition (`bird-definition`) — for an instruction count that
// repeats where times do not:
//
//   swift build -c release --product PushInstructions
//   strip --strip-debug -o /tmp/push .build/release/PushInstructions   # Debian 12's valgrind cannot read DWARF 5
//   for n in 0 20000; do
//       valgrind --tool=callgrind --callgrind-out-file=/tmp/push-$n.out /tmp/push normalize $n
//   done
//
// (the count with 20000 less the count with 0, over 20000: instructions a push without the
// start-up; docs/performance.md, "Twenty-sixth round"). With `--dump-instr=yes`,
// `count_atomics.py` counts the atomic operations the same way.

/// Keeps `value` alive and opaque to the optimizer, as the benchmarks' `blackHole` does.
@inline(never)
func keep<T>(_ value: borrowing T) {}

// The loops, in functions outside the main actor: a closure written in this file's top-level
// code is isolated to the main actor, and Swift 6 checks, each time such a closure handed to
// the standard library (`withUnsafeBufferPointer`'s) is called, that it runs there — about
// 330 instructions and a retain and a release a run, which were counted on both sides.

/// Parses `push` `count` times.
nonisolated func parse(_ push: [UInt8], times count: Int) {
    for _ in 0..<count { keep(push.withUnsafeBufferPointer { try? JSONParser().parse($0) }) }
}

/// Normalizes each of `records` with `registry`, `count` times.
nonisolated func normalize(_ records: [[UInt8]], with registry: AdapterRegistry, times count: Int) {
    for _ in 0..<count {
        for record in records { keep(record.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }
    }
}

/// Normalizes `push` with `registry` `count` times.
nonisolated func normalize(_ push: [UInt8], with registry: AdapterRegistry, times count: Int) {
    for _ in 0..<count { keep(push.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }
}

let arguments = CommandLine.arguments
let modes = ["normalize", "parse", "bird", "bird-definition"]
guard arguments.count == 3, modes.contains(arguments[1]), let count = Int(arguments[2]), count >= 0 else {
    print("usage: PushInstructions normalize|parse|bird|bird-definition N")
    exit(64)
}
// Built before the loop in both modes, and kept in this module (see BenchmarkInputs).
let registry = BenchmarkInputs.makeRegistry()
let typicalPush = BenchmarkInputs.typicalPush
let birdRecords = BenchmarkInputs.birdRecords
switch arguments[1] {
case "parse":
    parse(typicalPush, times: count)
case "normalize":
    normalize(typicalPush, with: registry, times: count)
default:
    // The registry is built in either Bird mode, so that the start-up the N = 0 run takes
    // away is the same.
    let definitionBirdRegistry = BenchmarkInputs.makeDefinitionBirdRegistry()
    normalize(birdRecords, with: arguments[1] == "bird" ? registry : definitionBirdRegistry, times: count)
}

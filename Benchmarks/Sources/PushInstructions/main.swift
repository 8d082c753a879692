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
    for _ in 0..<count { keep(typicalPush.withUnsafeBufferPointer { try? JSONParser().parse($0) }) }
case "normalize":
    for _ in 0..<count { keep(typicalPush.withUnsafeBufferPointer { try? registry.normalize(record: $0) }) }
default:
    // The registry is built in either Bird mode, so that the start-up the N = 0 run takes
    // away is the same.
    let definitionBirdRegistry = BenchmarkInputs.makeDefinitionBirdRegistry()
    let used = arguments[1] == "bird" ? registry : definitionBirdRegistry
    for _ in 0..<count {
        for record in birdRecords { keep(record.withUnsafeBufferPointer { try? used.normalize(record: $0) }) }
    }
}

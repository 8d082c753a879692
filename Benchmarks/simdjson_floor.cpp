// The C++ parse floor for run_bench.sh: reads a JSON Lines file and parses every line into
// a simdjson DOM on one thread, doing nothing with the result. It is the least work any
// normalizer must do (read each record's JSON), done by one of the fastest JSON parsers.
//
// Build (Debian: scripts/install-bench-deps.sh installs libsimdjson-dev):
//   g++ -O3 -march=native -std=c++17 Benchmarks/simdjson_floor.cpp -lsimdjson -o simdjson_floor
// Run: simdjson_floor CORPUS.jsonl   (prints "parsed N, not JSON M" on standard error)
#include <simdjson.h>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdjson_floor CORPUS.jsonl\n");
    return 2;
  }
  simdjson::padded_string corpus;
  if (simdjson::padded_string::load(argv[1]).get(corpus) != simdjson::SUCCESS) {
    std::fprintf(stderr, "simdjson_floor: cannot read %s\n", argv[1]);
    return 2;
  }
  simdjson::dom::parser parser;
  size_t parsed = 0, invalid = 0;
  const char *line = corpus.data();
  const char *end = line + corpus.size();
  while (line < end) {
    const char *newline = static_cast<const char *>(std::memchr(line, '\n', end - line));
    if (newline == nullptr) newline = end;
    if (newline > line) {
      simdjson::dom::element root;
      // The whole file is padded, so a line can be parsed where it lies (no copy).
      if (parser.parse(line, newline - line, false).get(root) == simdjson::SUCCESS) {
        parsed++;
      } else {
        invalid++;
      }
    }
    line = newline + 1;
  }
  std::fprintf(stderr, "parsed %zu, not JSON %zu\n", parsed, invalid);
  return 0;
}

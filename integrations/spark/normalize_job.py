#!/usr/bin/env python3
"""Normalize JSON Lines of TapRoute input envelopes with Apache Spark.

Reads JSON Lines from any path Spark's text reader understands (a local path, hdfs://,
s3a://, a directory or a glob), streams each partition through the `normalize` binary shipped
with the job (`spark-submit --files normalize,config.yaml`) and writes JSON Lines: one output
line per non-blank input line, in input order within each partition (saveAsTextFile writes one
part file per partition, in partition order, so reading the part files in name order gives the
input order).

Error records name the line of the input they come from: by default the line number in the
whole input as Spark reads it (`--line-numbers global`, which for a single input file is the
line number `normalize --lines FILE` reports); with `--line-numbers partition`, the line within
the partition, which saves Spark one pass over the input. See README.md next to this file.

Exit status of normalize: 0 (every record normalized) and 1 (some records are error records)
are success; anything else (2: a bad configuration or usage, a signal, a missing binary) fails
the task, and Spark fails the job after its task retries, with normalize's exit status and the
end of its standard error in the error message.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from collections import deque
from typing import Iterable, Iterator

# Lines that normalize skips without output: only spaces, tabs and CRs (docs/cli.md).
BLANK_CHARACTERS = " \t\r"
ERROR_PREFIX = '{"error":'
# How much of normalize's standard error a failure report quotes.
STDERR_TAIL_BYTES = 4000
LINE_FIELD = re.compile(r',"line":(\d+),')


class NormalizeFailed(RuntimeError):
    """normalize exited with a status other than 0 or 1, or wrote output that does not match
    its input (a different number of records, a record for the wrong line)."""


def is_blank(line: str) -> bool:
    """Whether normalize skips this line without writing anything for it."""
    return line.strip(BLANK_CHARACTERS) == ""


def resolve_shipped(name: str) -> str:
    """The path of a file shipped with the job (`--files`, `SparkContext.addFile`), or `name`
    itself when it is a path that exists here (an absolute path on every node, or a local run)."""
    if os.sep in name and os.path.exists(name):
        return name
    from pyspark import SparkFiles

    shipped = SparkFiles.get(os.path.basename(name))
    if os.path.exists(shipped):
        return shipped
    if os.path.exists(name):
        return name
    raise NormalizeFailed(
        f"cannot find {name!r}: neither shipped with the job (looked for {shipped!r}; pass it "
        f"with spark-submit --files) nor a path on this node"
    )


def subprocess_environment() -> dict[str, str]:
    """A small, predictable environment for normalize: a PATH, a UTF-8 locale and a TMPDIR;
    nothing else of the executor's environment (which differs between cluster managers)."""
    return {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": tempfile.gettempdir(),
    }


def renumber(record: str, stream_line: int, line: int) -> str:
    """Rewrites an error record's line number: normalize's number of the line in the stream it
    was sent (`stream_line`) becomes `line`, the input's line number, in the `"line"` field and
    in the message's `at line L column C`. Checks that normalize named the line it was sent."""
    match = LINE_FIELD.search(record)
    if match is None or int(match.group(1)) != stream_line:
        raise NormalizeFailed(
            f"normalize wrote an error record for line {match.group(1) if match else '?'} of its "
            f"stream where line {stream_line} was expected: {record[:300]}"
        )
    if stream_line == line:
        return record
    start, end = match.span()
    record = record[:start] + f',"line":{line},' + record[end:]
    location = f"at line {stream_line} column "
    if record.count(location) == 1:
        record = record.replace(location, f"at line {line} column ")
    return record


def stream_partition(
    numbered: Iterable[tuple[str, int]],
    normalize: str,
    config: str,
    jobs: int,
) -> Iterator[str]:
    """Runs one normalize process over a partition's lines. `numbered` yields (line, index)
    with the line's 0-based index in the input (global or within the partition); blank lines
    are not sent (normalize would skip them), and each output record's line number becomes the
    index + 1 of the line it answers."""
    binary = resolve_shipped(normalize)
    config_path = resolve_shipped(config)
    if not os.access(binary, os.X_OK):
        try:  # a shipped file may arrive without its executable bit
            os.chmod(binary, os.stat(binary).st_mode | 0o755)
        except OSError as error:
            raise NormalizeFailed(f"{binary!r} is not executable and cannot be made so: {error}") from error
    command = [binary, "--lines", "--quiet", "--jobs", str(jobs), "--config", config_path]
    stderr = tempfile.TemporaryFile()
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=subprocess_environment(),
            # normalize reads ./config.yaml when it has no --config; it always has one here,
            # but run it where no stray file can change that.
            cwd=os.path.dirname(binary) or ".",
        )
    except OSError as error:
        stderr.close()
        raise NormalizeFailed(f"cannot run {shlex.join(command)}: {error}") from error

    # Indices of the lines sent and not yet answered, in order.
    pending: deque[int] = deque()
    pending_lock = threading.Lock()
    writer_errors: list[BaseException] = []

    def write_lines() -> None:
        stdin = process.stdin
        assert stdin is not None
        try:
            # A blank first line: normalize skips a byte order mark at the very start of its
            # stream, but a partition's first line is not the start of the input (Spark's
            # reader has already dropped the one at the start of a file), so a BOM there must
            # be an error as elsewhere. Line n of the partition is line n + 1 of the stream.
            stdin.write(b"\n")
            for line, index in numbered:
                if is_blank(line):
                    continue
                with pending_lock:
                    pending.append(index)
                stdin.write(line.encode("utf-8") + b"\n")
        except BrokenPipeError:
            pass  # normalize ended early: its exit status says why.
        except BaseException as error:  # reading the partition failed: report it.
            writer_errors.append(error)
        finally:
            try:
                stdin.close()
            except BrokenPipeError:
                pass

    writer = threading.Thread(target=write_lines, name="normalize-stdin", daemon=True)
    writer.start()
    finished = False
    try:
        stdout = process.stdout
        assert stdout is not None
        received = 0
        for raw in stdout:
            received += 1
            with pending_lock:
                index = pending.popleft() if pending else None
            if index is None:
                raise NormalizeFailed(
                    f"normalize wrote more records than it was sent lines ({received - 1}); "
                    f"output line: {raw[:300]!r}"
                )
            record = raw.rstrip(b"\n").decode("utf-8")
            if record.startswith(ERROR_PREFIX):
                record = renumber(record, received + 1, index + 1)
            yield record
        writer.join()
        status = process.wait()
        if writer_errors:
            raise writer_errors[0]
        if status not in (0, 1):
            stderr.seek(0, os.SEEK_END)
            size = stderr.tell()
            stderr.seek(max(0, size - STDERR_TAIL_BYTES))
            tail = stderr.read().decode("utf-8", "replace").strip()
            how = f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"
            raise NormalizeFailed(
                f"normalize {how} ({shlex.join(command)})"
                + (f"; its standard error: {tail}" if tail else "; it wrote nothing on standard error")
            )
        if pending:
            raise NormalizeFailed(
                f"normalize wrote {received} records for {received + len(pending)} non-blank lines"
            )
        finished = True
    finally:
        if not finished and process.poll() is None:
            process.kill()
            process.wait()
        stderr.close()


def normalize_lines(
    lines,
    normalize: str = "normalize",
    config: str = "config.yaml",
    jobs: int = 1,
    line_numbers: str = "global",
):
    """The RDD of output records for an RDD of input lines (see the module's description)."""
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    if line_numbers == "global":
        numbered = lines.zipWithIndex()
    elif line_numbers == "partition":
        numbered = lines.mapPartitions(lambda part: ((line, i) for i, line in enumerate(part)))
    else:
        raise ValueError(f"line numbers are 'global' or 'partition', got {line_numbers!r}")
    return numbered.mapPartitions(
        lambda part: stream_partition(part, normalize, config, jobs), preservesPartitioning=True
    )


def read_lines(spark_context, path: str, partitions: int | None):
    """The lines of `path`, split at LF only, as normalize splits JSON Lines (Hadoop's default
    also splits at a lone CR; a CRLF line keeps its CR, which normalize reads as a blank)."""
    spark_context._jsc.hadoopConfiguration().set("textinputformat.record.delimiter", "\n")
    if partitions is None:
        return spark_context.textFile(path)
    return spark_context.textFile(path, minPartitions=partitions)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Normalize JSON Lines of TapRoute input envelopes with Spark "
        "(one output line per non-blank input line, in order within each partition)."
    )
    parser.add_argument(
        "input", help="input path(s) Spark's textFile reads (local, hdfs://, s3a://, a glob)"
    )
    parser.add_argument(
        "output", help="output directory (must not exist), written with saveAsTextFile"
    )
    parser.add_argument(
        "--normalize",
        default="normalize",
        help="the normalize binary: its name among the files shipped with --files (default: "
        "normalize) or a path present on every node",
    )
    parser.add_argument(
        "--config",
        default="config.yaml",
        help="the configuration: its name among the shipped files (default: config.yaml) or a "
        "path present on every node",
    )
    parser.add_argument(
        "--partitions",
        type=int,
        default=None,
        help="minimum number of input partitions (textFile's minPartitions)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="normalize --jobs per task (default 1: Spark runs the tasks in parallel)",
    )
    parser.add_argument(
        "--line-numbers",
        choices=("global", "partition"),
        default="global",
        help="error records' line: in the whole input (default; one more pass to count lines) "
        "or within the partition",
    )
    parser.add_argument(
        "--master", default=None, help="Spark master when not set by spark-submit (e.g. local[2])"
    )
    arguments = parser.parse_args(argv)
    if arguments.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {arguments.jobs}")
    if arguments.partitions is not None and arguments.partitions < 1:
        parser.error(f"--partitions must be at least 1, got {arguments.partitions}")
    return arguments


def main(argv: list[str]) -> int:
    arguments = parse_arguments(argv)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("taproute-normalize")
    if arguments.master:
        builder = builder.master(arguments.master)
    spark = builder.getOrCreate()
    try:
        lines = read_lines(spark.sparkContext, arguments.input, arguments.partitions)
        records = normalize_lines(
            lines,
            normalize=arguments.normalize,
            config=arguments.config,
            jobs=arguments.jobs,
            line_numbers=arguments.line_numbers,
        )
        records.saveAsTextFile(arguments.output)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Runs normalize_job.py with PySpark in local mode and compares its output with the CLI's
(`normalize --lines` on the same input), record for record.

Needs NORMALIZE (the path of a built normalize binary) in the environment; run_test.sh sets it.
"""

from __future__ import annotations

import contextlib
import glob
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import normalize_job  # noqa: E402

NORMALIZE = os.environ.get("NORMALIZE", "")
CONFIG = os.path.join(REPOSITORY, "config.yaml")
MASTER = "local[2]"


def cli_output(path: str) -> list[str]:
    """What `normalize --lines` writes for the file, read from standard input (so its error
    records carry no "file" field, like the job's)."""
    with open(path, "rb") as stream:
        result = subprocess.run(
            [NORMALIZE, "--lines", "--quiet", "--jobs", "1", "--config", CONFIG],
            stdin=stream,
            capture_output=True,
            check=False,
        )
    if result.returncode not in (0, 1):
        raise AssertionError(f"normalize exited {result.returncode}: {result.stderr.decode()}")
    return result.stdout.decode("utf-8").splitlines()


def examples_as_json_lines(path: str) -> int:
    """Writes the repository's example envelopes as JSON Lines, with the lines of
    examples/mixed.jsonl (one is not JSON), blank lines, CRLF endings and bad records between
    them. Returns the number of non-blank lines."""
    lines: list[str] = []
    for example in sorted(glob.glob(os.path.join(REPOSITORY, "examples", "*.json"))):
        if os.path.basename(example).startswith("message"):
            continue  # messages are encode's input, not envelopes
        with open(example, encoding="utf-8") as stream:
            lines.append(json.dumps(json.load(stream), ensure_ascii=False, separators=(",", ":")))
    with open(os.path.join(REPOSITORY, "examples", "mixed.jsonl"), encoding="utf-8") as stream:
        lines.extend(stream.read().splitlines())
    lines += [
        "",
        "  \t ",
        '{"kind":"url","url":5}',
        "[1,2",
        '{"kind":"url","url":"campaigndemoapp://products/7"}\r',
        "\r",
        '{"kind":"url","url":"a"} trailing',
        '{"kind":"url","url":"x://a"}\r{"kind":"url"}',  # a lone CR does not end a line
        '"just a string"',
        '{"kind":"url","url":"campaigndemoapp://search?q=caf\u00e9 \U0001f600"}',  # not ASCII
        '{"kind":"url","url":"https://example.com/' + "a" * (1 << 20) + '"}',  # over maxRecordBytes
        "[" * 200 + "]" * 200,  # deeper than maxDepth
    ]
    # Repeat so that every partition holds examples and errors.
    body = lines * 5
    with open(path, "w", encoding="utf-8", newline="") as stream:
        stream.write("\n".join(body) + "\n")
    return sum(1 for line in body if not normalize_job.is_blank(line))


class NormalizeJobTests(unittest.TestCase):
    spark = None

    @classmethod
    def setUpClass(cls) -> None:
        if not NORMALIZE or not os.access(NORMALIZE, os.X_OK):
            raise RuntimeError(f"NORMALIZE={NORMALIZE!r}: set it to a built normalize binary (run_test.sh does)")
        from pyspark.sql import SparkSession

        cls.work = tempfile.mkdtemp(prefix="taproute-spark-test-")
        cls.spark = (
            SparkSession.builder.master(MASTER)
            .appName("taproute-normalize-test")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.task.maxFailures", "1")
            .getOrCreate()
        )
        cls.spark.sparkContext.setLogLevel("OFF")
        context = cls.spark.sparkContext
        # Ship the binary and the configuration as spark-submit --files does.
        context.addFile(NORMALIZE)
        context.addFile(CONFIG)
        cls.examples = os.path.join(cls.work, "examples.jsonl")
        cls.example_records = examples_as_json_lines(cls.examples)
        cls.corpus = os.path.join(cls.work, "corpus.jsonl")
        subprocess.run(
            [sys.executable, os.path.join(REPOSITORY, "Benchmarks", "make_corpus.py"), "20000", cls.corpus],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    @classmethod
    def tearDownClass(cls) -> None:
        if cls.spark is not None:
            cls.spark.stop()
            shutil.rmtree(cls.work, ignore_errors=True)

    def run_job(self, path: str, partitions: int, **options) -> tuple[list[list[str]], list[list[str]]]:
        """The job's output and its input lines, each as one list per partition."""
        lines = normalize_job.read_lines(self.spark.sparkContext, path, partitions)
        self.assertGreaterEqual(lines.getNumPartitions(), partitions)
        output = normalize_job.normalize_lines(
            lines, normalize=os.path.basename(NORMALIZE), config="config.yaml", **options
        )
        return output.glom().collect(), lines.glom().collect()

    def write_partition(self, lines: list[str]) -> str:
        handle, path = tempfile.mkstemp(suffix=".jsonl", dir=self.work)
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write("".join(line + "\n" for line in lines))
        return path

    def assert_matches_cli(self, path: str, expected_records: int | None, partitions: int) -> None:
        expected = cli_output(path)
        if expected_records is not None:
            self.assertEqual(len(expected), expected_records)
        self.assertTrue(any(line.startswith('{"error":') for line in expected), "the input must hold error records")
        self.assertTrue(any(not line.startswith('{"error":') for line in expected), "and interactions")

        # Global line numbers: the concatenated output is the CLI's, byte for byte.
        output, inputs = self.run_job(path, partitions)
        self.assertGreater(sum(1 for part in output if part), 1, "the records must span several partitions")
        self.assertEqual([record for part in output for record in part], expected)

        # Line numbers within the partition: each partition's output is the CLI's on that
        # partition's lines, and all of them together are the CLI's records with other lines.
        output, inputs = self.run_job(path, partitions, line_numbers="partition")
        self.assertEqual(len(output), len(inputs))
        for part_output, part_input in zip(output, inputs):
            self.assertEqual(part_output, cli_output(self.write_partition(part_input)))
        self.assertEqual(sum(len(part) for part in output), len(expected))

    def test_examples_match_the_cli(self) -> None:
        self.assert_matches_cli(self.examples, self.example_records, partitions=3)

    def test_corpus_of_20000_records_matches_the_cli(self) -> None:
        self.assert_matches_cli(self.corpus, 20000, partitions=4)

    def test_jobs_per_task_do_not_change_the_output(self) -> None:
        output, _ = self.run_job(self.examples, 2, jobs=2)
        self.assertEqual([record for part in output for record in part], cli_output(self.examples))

    def test_a_byte_order_mark_is_read_as_the_cli_reads_it(self) -> None:
        # Skipped at the start of the input (also alone on the first line), an error elsewhere.
        record = '{"kind":"url","url":"campaigndemoapp://products/1"}'
        for text in ("\ufeff\n" + record + "\n", "\ufeff" + record + "\n" + ("\ufeff" + record + "\n") * 3):
            with self.subTest(text=text[:8]):
                path = self.write_partition([text.rstrip("\n")])
                expected = cli_output(path)
                self.assertTrue(expected)
                output, _ = self.run_job(path, 2)
                self.assertEqual([line for part in output for line in part], expected)

    def test_bytes_that_are_not_utf8_reach_normalize_as_replacement_characters(self) -> None:
        # The documented limit: Spark's text reader decodes lines as UTF-8 with replacement.
        raw = b'{"kind":"url","url":"campaigndemoapp://products/\xff\xfe"}\n{"kind":"url","url":"\xc3"}\n'
        path = os.path.join(self.work, "latin.jsonl")
        with open(path, "wb") as stream:
            stream.write(raw)
        replaced = self.write_partition(raw.decode("utf-8", "replace").splitlines())
        output, _ = self.run_job(path, 1)
        self.assertEqual([line for part in output for line in part], cli_output(replaced))
        self.assertNotEqual(cli_output(replaced), cli_output(path))

    def test_a_gzip_input_is_read_whole(self) -> None:
        compressed = os.path.join(self.work, "examples.jsonl.gz")
        with open(self.examples, "rb") as source, gzip.open(compressed, "wb") as target:
            shutil.copyfileobj(source, target)
        output, _ = self.run_job(compressed, 1)
        self.assertEqual([line for part in output for line in part], cli_output(self.examples))

    def assert_job_fails(self, message: str, normalize: str | None = None, config: str = "config.yaml") -> str:
        lines = normalize_job.read_lines(self.spark.sparkContext, self.examples, 2)
        output = normalize_job.normalize_lines(
            lines, normalize=normalize or os.path.basename(NORMALIZE), config=config
        )
        with self.assertRaises(Exception) as failure:
            output.collect()
        text = str(failure.exception)
        self.assertIn("NormalizeFailed", text)
        self.assertIn(message, text)
        return text

    def ship(self, name: str, text: str, executable: bool = False) -> str:
        path = os.path.join(self.work, name)
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
        if executable:
            os.chmod(path, 0o755)
        self.spark.sparkContext.addFile(path)
        return name

    def test_a_bad_configuration_fails_the_job_with_normalizes_message(self) -> None:
        config = self.ship("bad-config.yaml", "security:\n  allowedSchemes: 7\n")
        text = self.assert_job_fails("normalize exited with status 2", config=config)
        self.assertIn("bad-config.yaml", text)  # normalize's own message names the file

    def test_a_crashing_binary_fails_the_job(self) -> None:
        crash = self.ship("crashing-normalize", "#!/bin/sh\nhead -n 3\nkill -SEGV $$\n", executable=True)
        self.assert_job_fails("normalize was killed by signal 11", normalize=crash)

    def test_a_binary_that_drops_records_fails_the_job(self) -> None:
        # Exit status 0 but fewer records than lines: the output cannot be matched to its input.
        # The real binary is shipped next to it (setUpClass).
        script = '#!/bin/sh\n"$(dirname "$0")/%s" "$@" | head -n 2\n' % os.path.basename(NORMALIZE)
        short = self.ship("short-normalize", script, executable=True)
        self.assert_job_fails("normalize wrote 2 records for", normalize=short)

    def test_a_binary_that_adds_records_fails_the_job(self) -> None:
        script = '#!/bin/sh\n"$(dirname "$0")/%s" "$@"; echo "{}"\n' % os.path.basename(NORMALIZE)
        extra = self.ship("extra-normalize", script, executable=True)
        self.assert_job_fails("normalize wrote more records than it was sent lines", normalize=extra)

    def test_a_binary_shipped_without_its_executable_bit_runs(self) -> None:
        path = os.path.join(self.work, "plain-normalize")
        shutil.copyfile(NORMALIZE, path)
        os.chmod(path, 0o644)
        self.spark.sparkContext.addFile(path)
        lines = normalize_job.read_lines(self.spark.sparkContext, self.examples, 2)
        output = normalize_job.normalize_lines(lines, normalize="plain-normalize", config="config.yaml")
        self.assertEqual(output.collect(), cli_output(self.examples))

    def test_options_out_of_range_are_usage_errors(self) -> None:
        for option in (["--jobs", "0"], ["--partitions", "0"], ["--line-numbers", "file"]):
            with self.subTest(option=option), self.assertRaises(SystemExit) as exit_:
                with contextlib.redirect_stderr(io.StringIO()):
                    normalize_job.parse_arguments(["in.jsonl", "out", *option])
            self.assertEqual(exit_.exception.code, 2)

    def test_a_binary_that_names_the_wrong_line_fails_the_job(self) -> None:
        # One error record per non-blank line, each naming line 999.
        script = (
            "#!/bin/sh\n"
            "while IFS= read -r line; do\n"
            '  [ -n "$line" ] && echo \'{"error":{"code":"x","message":"m","line":999,"path":"$"}}\'\n'
            "done\n"
            "exit 1\n"
        )
        wrong = self.ship("wrong-line-normalize", script, executable=True)
        self.assert_job_fails("wrote an error record for line 999 of its stream where line 2", normalize=wrong)

    def test_a_missing_binary_fails_the_job(self) -> None:
        self.assert_job_fails("cannot find 'no-such-normalize'", normalize="no-such-normalize")

    def test_spark_submit_with_shipped_files_writes_the_clis_records(self) -> None:
        spark_submit = shutil.which("spark-submit") or os.path.join(
            os.path.dirname(__import__("pyspark").__file__), "bin", "spark-submit"
        )
        output = os.path.join(self.work, "submitted")
        result = subprocess.run(
            [
                spark_submit,
                "--master",
                MASTER,
                "--conf",
                "spark.ui.enabled=false",
                "--files",
                f"{NORMALIZE},{CONFIG}",
                os.path.join(HERE, "normalize_job.py"),
                "--normalize",
                os.path.basename(NORMALIZE),  # --files ships a file under its own name
                "--partitions",
                "3",
                self.examples,
                output,
            ],
            capture_output=True,
            text=True,
            check=False,
            cwd=self.work,
        )
        self.assertEqual(result.returncode, 0, result.stderr[-3000:])
        parts = sorted(glob.glob(os.path.join(output, "part-*")))
        self.assertGreaterEqual(len(parts), 3)
        records: list[str] = []
        for part in parts:
            with open(part, encoding="utf-8") as stream:
                records.extend(stream.read().splitlines())
        self.assertEqual(records, cli_output(self.examples))


if __name__ == "__main__":
    unittest.main(verbosity=2)

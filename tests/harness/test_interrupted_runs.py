"""Ctrl-C in the middle of a run, for real: the pytest plugin (serial and ``-n 2``) and ``npukb evaluate``
(serial and ``-j 2``) are started as subprocesses in a process group of their own, on the g++ test
toolchain slowed down (slow_gxx_toolchain), and the whole group gets SIGINT, as a terminal sends it, once
the first sample has finished. The run must end with one line (N of M samples finished, how to resume),
exit non-zero, print no traceback, mark summary.json, report.md and the HTML report as interrupted, and
lose no finished result; resuming finishes the rest and the run is then marked complete."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from harness_paths import DATA, HERE

TOOL = "--toolchain=slow_gxx_toolchain:SlowGxxToolchain"
SAMPLES = 4
TOTAL = 2 * SAMPLES                               # the two g++ test cases
LINE = re.compile(r"^(npukernelbench|npukb evaluate): interrupted: (\d+) of (\d+) samples finished \(kept in .*out\); "
                  r"resume with: (pytest|npukb) .*--npukb-resume$")


def _env(delay: float) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parents[1] / "src"), str(HERE)])
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["NPUKB_TEST_RUN_DELAY_S"] = str(delay)
    return env


def _sigint_as_a_terminal_leaves_it() -> None:
    """The child starts with SIGINT's default action, as a command typed at a terminal does. A test run
    started in the background by a non-interactive shell (a CI script's ``cmd &``) has SIGINT ignored,
    every process it starts inherits that, and Python then installs no KeyboardInterrupt handler: the
    Ctrl-C below would be ignored and the run would finish instead."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _result_lines(out: Path) -> list[dict]:
    path = out / "results.jsonl"
    return [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()] if path.is_file() else []


def _interrupt(cwd: Path, argv: list[str]) -> subprocess.CompletedProcess:
    """Run ``argv`` until its first result is written, then Ctrl-C it (SIGINT to its process group)."""
    proc = subprocess.Popen(argv, cwd=cwd, env=_env(0.4), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=_sigint_as_a_terminal_leaves_it)
    deadline = time.monotonic() + 300
    while not _result_lines(cwd / "out") and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, "the run ended before it could be interrupted:\n" + proc.communicate()[0][-3000:]
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    shutil.copytree(DATA / "gxx_cases", tmp_path / "cases")
    return tmp_path / "cases"


def _check_interrupted(tmp_path: Path, proc: subprocess.CompletedProcess, last_stream: str) -> str:
    """The interrupted run's output and files; returns the resume command."""
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0, text[-3000:]
    assert "Traceback" not in text and "Exception ignored" not in text, text[-5000:]
    lines = [ln for ln in getattr(proc, last_stream).splitlines() if ln.strip()]
    match = LINE.match(lines[-1])
    assert match, text[-3000:]                               # the run ends with the one line
    assert sum(bool(LINE.match(ln)) for ln in text.splitlines()) == 1
    finished, total = int(match[2]), int(match[3])
    results = _result_lines(tmp_path / "out")
    assert total == TOTAL and 1 <= finished < total
    assert finished == len({(r["task"], r["sample"]) for r in results})   # every finished result kept
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert (summary["interrupted"], summary["finished_samples"], summary["total_samples"]) == (True, finished, total)
    head = (tmp_path / "out" / "report.md").read_text().splitlines()[:4]
    assert any(f"Interrupted run: only {finished} of {total} samples finished" in ln for ln in head), head
    return lines[-1].split("resume with: ", 1)[1]


def test_pytest_serial_interrupted_then_resumed(tmp_path, cases) -> None:
    argv = [sys.executable, "-m", "pytest", "-p", "npukernelbench.plugin", "cases", TOOL, f"--samples={SAMPLES}",
            "--shapes=static", "--npukb-out=out", "-q", "-p", "no:cacheprovider"]
    proc = _interrupt(tmp_path, argv)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED
    command = _check_interrupted(tmp_path, proc, "stdout")
    assert command.startswith("pytest -p npukernelbench.plugin cases ") and command.endswith(" --npukb-resume")
    before = _result_lines(tmp_path / "out")
    resumed = subprocess.run([sys.executable, "-m", *command.split()], cwd=tmp_path, env=_env(0),
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stdout[-3000:]
    assert not any(LINE.match(ln) for ln in resumed.stdout.splitlines())
    after = _result_lines(tmp_path / "out")
    assert after[:len(before)] == before                     # nothing already written is lost
    assert len({(r["task"], r["sample"]) for r in after}) == TOTAL
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert (summary["interrupted"], summary["finished_samples"], summary["total_samples"]) == (False, TOTAL, TOTAL)
    assert "Interrupted" not in (tmp_path / "out" / "report.md").read_text()


def test_pytest_xdist_interrupted(tmp_path, cases) -> None:
    argv = [sys.executable, "-m", "pytest", "-p", "npukernelbench.plugin", "-p", "xdist.plugin", "-n", "2", "cases",
            TOOL, f"--samples={SAMPLES}", "--shapes=static", "--npukb-out=out", "-q", "-p", "no:cacheprovider"]
    proc = _interrupt(tmp_path, argv)
    _check_interrupted(tmp_path, proc, "stdout")


@pytest.mark.parametrize("jobs", [1, 2])
def test_npukb_evaluate_interrupted(tmp_path, cases, jobs) -> None:
    argv = [sys.executable, "-m", "npukernelbench.cli", "evaluate", "cases", TOOL, f"--samples={SAMPLES}",
            "--shapes=static", "--npukb-out=out", "-j", str(jobs)]
    proc = _interrupt(tmp_path, argv)
    assert proc.returncode == 130
    assert "KeyboardInterrupt" not in proc.stdout + proc.stderr, (proc.stdout + proc.stderr)[-5000:]
    command = _check_interrupted(tmp_path, proc, "stderr")
    assert command.startswith("npukb evaluate cases ") and command.endswith(f"-j {jobs} --npukb-resume")
    # rebuilding the summary and the HTML report keeps the run marked interrupted, at the top
    report = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "report", "out", "--html"], cwd=tmp_path,
                            env=_env(0), capture_output=True, text=True, timeout=300)
    assert report.returncode == 0, report.stderr[-3000:]
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["interrupted"] is True
    page = (tmp_path / "out" / "report.html").read_text()
    first = page.index('<p class="interrupted">Interrupted run: only ')
    assert first < page.index("<h2>")                         # above every section


@pytest.mark.parametrize("front", ["pytest", "npukb"])
def test_interrupted_before_any_sample_keeps_the_earlier_run(tmp_path, cases, front) -> None:
    """Ctrl-C during the toolchain's set-up: one line saying nothing was evaluated, exit non-zero, no
    traceback, and the earlier run's files in the directory untouched."""
    out = tmp_path / "out"
    out.mkdir()
    earlier = {"results.jsonl": '{"earlier": 1}\n', "summary.json": '{"earlier": 1}\n', "report.md": "earlier\n"}
    for name, text in earlier.items():
        (out / name).write_text(text)
    program = ["pytest", "-p", "npukernelbench.plugin", "-p", "no:cacheprovider"] if front == "pytest" else \
        ["npukernelbench.cli", "evaluate"]
    argv = [sys.executable, "-m", *program, "cases", TOOL, "--shapes=static", "--npukb-out=out"]
    env = {**_env(0), "NPUKB_TEST_PREPARE_DELAY_S": "60", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_sigint_as_a_terminal_leaves_it)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while not any("setting up for" in ln for ln in lines) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, "".join(lines)[-3000:]
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.stderr.read()
    proc.wait(timeout=60)
    reader.join(timeout=10)
    text = "".join(lines) + err
    assert proc.returncode == (pytest.ExitCode.INTERRUPTED if front == "pytest" else 130), text[-3000:]
    assert "Traceback" not in text, text[-3000:]
    last = [ln for ln in (lines if front == "pytest" else err.splitlines()) if ln.strip()][-1]
    assert "interrupted before any sample was evaluated" in last, text[-3000:]
    assert {name: (out / name).read_text() for name in earlier} == earlier

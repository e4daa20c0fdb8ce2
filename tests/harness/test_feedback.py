"""The multi-turn repair feedback (npukernelbench.feedback): the failing turn's own report, first
errors first, bounded, scrubbed (environment values, host paths, the run's scratch directory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from npukernelbench.feedback import FEEDBACK_LIMIT, feedback_message, follow_up_messages
from npukernelbench.generators.base import Completion
from npukernelbench.result import ErrorCategory, SampleResult, Stage, Status


def result(status: Status, message: str = "", **details: object) -> SampleResult:
    return SampleResult("level1/math/vadd", 1, "math", 0, status, ErrorCategory.OTHER, message,
                        details=dict(details), stage=Stage.COLLECTED)


def diagnostics(count: int, where: str = "op_kernel/vadd.cpp") -> str:
    return "\n".join(f"{where}:{i}:5: error: 'name_{i}' was not declared in this scope\n"
                     f"    {i} |     z = name_{i};\n      |         ^~~~~~" for i in range(1, count + 1))


def test_build_errors_first_errors_first_and_bounded() -> None:
    text = feedback_message(result(Status.BUILD_ERROR, "[other] error", diagnostics=diagnostics(400)), 1, 3)
    assert "did not pass (turn 1 of 3): the project did not build" in text
    assert "'name_1' was not declared" in text and "'name_5' was not declared" in text
    assert "'name_6'" not in text and "more error(s) not shown" in text
    huge = result(Status.WRONG, "mismatch: " + "x" * 50_000)
    assert len(feedback_message(huge, 1, 2)) < FEEDBACK_LIMIT + 400


def test_scrubbed(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("NPUKB_TEST_API_TOKEN", "s3cr3t-value-42")
    scratch = tmp_path / "run" / "scratch"
    log = (f"{scratch}/s0/op_kernel/vadd.cpp:3:1: error: bad token s3cr3t-value-42\n"
           f"/home/someone/private/notes.txt:1:1: error: included from here")
    text = feedback_message(result(Status.BUILD_ERROR, diagnostics=log), 2, 3, scratch=scratch)
    assert "s3cr3t-value-42" not in text and "<redacted>" in text
    assert str(tmp_path) not in text and "/home/someone" not in text
    relative = feedback_message(result(Status.RUNTIME_ERROR, "crash in npukb-out/scratch/s0/kernel"), 1, 2,
                                scratch=Path("npukb-out/scratch"))
    assert "npukb-out/scratch" not in relative and "<scratch>/s0/kernel" in relative


def test_runtime_and_mismatch_reports_carry_the_case() -> None:
    text = feedback_message(result(Status.WRONG, "max abs error 3.0 at index 7", case="shape [3, 77] float32"), 1, 2)
    assert "output differs from the reference" in text and "max abs error 3.0 at index 7" in text
    assert "Failing case: shape [3, 77] float32" in text
    assert "failed at run time" in feedback_message(result(Status.RUNTIME_ERROR, "UB overflow"), 1, 2)


def test_passing_sample_gets_no_feedback() -> None:
    with pytest.raises(ValueError, match="no feedback"):
        feedback_message(result(Status.PASSED), 1, 2)


def test_follow_up_messages_keep_the_history() -> None:
    prompt = ({"role": "system", "content": "S"}, {"role": "user", "content": "U"})
    history = [(Completion("t", 0, text="answer one"), result(Status.PARSE_ERROR, "no files")),
               (Completion("t", 0, files={"op_kernel/vadd.cpp": "int x;"}), result(Status.WRONG, "off by one"))]
    messages = follow_up_messages(prompt, history, 3)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[2]["content"] == "answer one" and "(turn 1 of 3)" in messages[3]["content"]
    assert "=== op_kernel/vadd.cpp ===" in messages[4]["content"] and "off by one" in messages[5]["content"]

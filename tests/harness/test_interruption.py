"""interruption.py on its own: the progress summary.json records, the sentence reports open with, the
resume command and the closing line (the end-to-end Ctrl-C runs are in test_interrupted_runs.py)."""

from __future__ import annotations

import json

from npukernelbench.interruption import Progress, interrupted_line, recorded_interruption, resume_command
from npukernelbench.report import markdown
from npukernelbench.run_summary import build_summary


def test_progress_round_trips_through_summary_json() -> None:
    stopped = Progress(3, 8, interrupted=True)
    assert stopped.to_json() == {"interrupted": True, "finished_samples": 3, "total_samples": 8}
    assert Progress.from_summary(stopped.to_json()) == stopped
    assert Progress.from_summary({"levels": {}}) is None                   # written before runs recorded it
    assert Progress(8, 8, interrupted=False).sentence() == ""
    assert stopped.sentence().startswith("Interrupted run: only 3 of 8 samples finished")


def test_resume_command_adds_the_flag_once_and_quotes() -> None:
    assert resume_command("pytest", ["cases", "-m", "level1 and math"]) == \
        "pytest cases -m 'level1 and math' --npukb-resume"
    assert resume_command("npukb", ["evaluate", "cases", "--npukb-resume", "-j", "2"]) == \
        "npukb evaluate cases --npukb-resume -j 2"
    line = interrupted_line("npukb evaluate", Progress(1, 4, True), "out", "npukb evaluate x --npukb-resume")
    assert line == ("npukb evaluate: interrupted: 1 of 4 samples finished (kept in out); resume with: "
                    "npukb evaluate x --npukb-resume")


def test_summary_and_report_of_a_finished_and_an_interrupted_run(tmp_path) -> None:
    finished = build_summary([], "m", "t", 1, None)
    assert (finished.summary["interrupted"], finished.summary["finished_samples"]) == (False, 0)
    assert "Interrupted" not in markdown(finished.summary, [])
    stopped = build_summary([], "m", "t", 2, None, progress=Progress(0, 4, interrupted=True))
    head = markdown(stopped.summary, []).splitlines()[:3]
    assert head[0] == "# NPUKernelBench report" and head[2].startswith("**Interrupted run: only 0 of 4 samples")
    (tmp_path / "summary.json").write_text(json.dumps(stopped.summary))
    assert recorded_interruption(tmp_path) == Progress(0, 4, interrupted=True)
    (tmp_path / "summary.json").write_text(json.dumps(finished.summary))
    assert recorded_interruption(tmp_path) is None
    (tmp_path / "summary.json").write_text("{torn")
    assert recorded_interruption(tmp_path) is None

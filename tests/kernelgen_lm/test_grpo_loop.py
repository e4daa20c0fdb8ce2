"""The closed online loop (``benchmarks/grpo_loop.py``), on a toy setting: one task, two SFT steps,
one GRPO step of two 16-token completions; and its measurement's arithmetic on given outcomes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from kernelgen_lm.grpo_loop import GRPOLoopSettings, measure

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "benchmark_cases"


def _load_script():
    spec = importlib.util.spec_from_file_location("grpo_loop_script", REPO / "benchmarks" / "grpo_loop.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_script_runs_the_loop_and_prints_one_json_line(tmp_path, capsys):
    """Noise (two SFT steps) writes no project: every measured sample is a parse error (-1); GRPO runs
    one step of one group of two completions, each evaluated by the pipeline; the last stdout line is
    the JSON figures, and the loop's record is written."""
    script = _load_script()
    out = tmp_path / "loop"
    assert script.main(["--out", str(out), "--task", "level1/math/add_custom", "--sft-steps", "2",
                        "--grpo-steps", "1", "--num-generations", "2", "--samples", "2", "--max-tokens", "16",
                        "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    line = json.loads(captured.out.strip().splitlines()[-1])
    for key in ("reward_before", "reward_after", "er_before", "er_after", "evals_per_second", "seconds",
                "seconds_per_step"):
        assert key in line, key
    assert line["reward_before"] == -1.0 and line["reward_after"] == -1.0
    assert line["er_before"] == 0.0 and line["er_after"] == 0.0
    assert line["statuses_before"] == {"parse_error": 2} and line["statuses_after"] == {"parse_error": 2}
    assert line["evaluations"] == 2 and line["evals_per_second"] > 0
    assert line["targets_met"]["reward_after>reward_before"] is False      # no spread in the group: nothing learnt
    assert set(line["stage_seconds"]) == {"sft", "measure_before", "grpo", "measure_after"}
    assert "grpo loop: before GRPO: mean reward -1.0" in captured.err
    record = json.loads((out / "grpo_loop.json").read_text())
    assert record["tasks"] == ["level1/math/add_custom"] and record["settings"]["grpo_steps"] == 1
    assert (out / "grpo" / "model.safetensors").is_file()
    assert (out / "measure-after" / "results.jsonl").is_file()


@pytest.mark.parametrize("statuses, reward, er", [
    (("passed", "passed", "wrong", "build_error"), (1 + 1 + 0.25 - 0.5) / 4, 0.5),
    (("parse_error", "runtime_error", "passed", "passed"), (-1 + 0 + 1 + 1) / 4, 0.5),
    (("parse_error",) * 4, -1.0, 0.0),
])
def test_measure_averages_the_shaped_reward_and_er(tmp_path, monkeypatch, statuses, reward, er):
    """Mean reward: the reward table's value of each outcome, averaged; ER: pass@1 over the samples."""
    from kernelgen_lm import rollouts
    from kernelgen_lm.tasks import select_tasks
    from npukernelbench.result import SampleResult, Status

    specs = select_tasks((CASES,), ("level1/math/add_custom",))
    results = [SampleResult(specs[0].case_id, 1, "math", i, Status(s)) for i, s in enumerate(statuses)]
    monkeypatch.setattr(rollouts, "roll_out", lambda *a, **k: rollouts.Rollout(tmp_path, results))
    settings = GRPOLoopSettings(cases=(CASES,), out=tmp_path, samples=len(statuses))
    measured = measure(specs, tmp_path / "model", tmp_path / "m", settings)
    assert measured["reward"] == pytest.approx(reward)
    assert measured["er"] == pytest.approx(er)


def test_measure_refuses_samples_without_an_outcome(tmp_path, monkeypatch):
    from kernelgen_lm import rollouts
    from kernelgen_lm.tasks import select_tasks

    specs = select_tasks((CASES,), ("level1/math/add_custom",))
    gone = [{"task": specs[0].case_id, "sample": 0, "cause": "InfrastructureError: injected"}]
    monkeypatch.setattr(rollouts, "roll_out", lambda *a, **k: rollouts.Rollout(tmp_path, [], gone))
    with pytest.raises(RuntimeError, match="no outcome"):
        measure(specs, tmp_path / "model", tmp_path / "m", GRPOLoopSettings(cases=(CASES,), out=tmp_path))

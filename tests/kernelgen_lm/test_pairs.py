"""Pair mining: classes from statuses, policies, one-class tasks, a run directory as input."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen_lm.pairs import Candidate, Grade, grade, mine, pairs_from_run, write_pairs
from npukernelbench.cases import load_case
from npukernelbench.generators.base import Completion
from npukernelbench.result import SampleResult, Status
from npukernelbench.store import RunDir

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases"
ADD_CUSTOM = CASES / "level1" / "math" / "add_custom"


def result(task: str, sample: int, status: Status) -> SampleResult:
    return SampleResult(task, 1, "Math", sample, status, message=status.value)


def test_classes_follow_the_paper():
    assert grade(result("t", 0, Status.PASSED)) is Grade.GREEN
    for status in (Status.WRONG, Status.RUNTIME_ERROR, Status.TIMEOUT):
        assert grade(result("t", 0, status)) is Grade.ORANGE          # builds, wrong
    for status in (Status.BUILD_ERROR, Status.PARSE_ERROR, Status.REJECTED):
        assert grade(result("t", 0, status)) is Grade.PURPLE          # does not build


def cands(task: str, grades: str) -> list[Candidate]:
    names = {"g": Grade.GREEN, "o": Grade.ORANGE, "p": Grade.PURPLE}
    return [Candidate(task, i, f"{task} answer {i}", names[g], names[g].value) for i, g in enumerate(grades)]


def test_policies_and_one_class_tasks():
    candidates = cands("a", "ggop") + cands("b", "ggg") + cands("c", "pop") + cands("d", "o")
    prompts = {t: ({"role": "user", "content": t},) for t in "abcd"}
    from kernelgen_lm.pairs import MiningStats

    stats = MiningStats()
    pairs = mine(candidates, prompts, "green>orange+purple", stats=stats)
    assert [(p.task, p.chosen.sample, p.rejected.sample) for p in pairs] == \
        [("a", 0, 2), ("a", 1, 2), ("a", 0, 3), ("a", 1, 3)]
    assert stats.one_class_tasks == ["b", "d"] and stats.pairs == 4 and stats.candidates == 11
    assert stats.pair_kinds == {"green>orange": 2, "green>purple": 2}
    assert len(mine(candidates, prompts, "green>orange")) == 2
    assert len(mine(candidates, prompts, "green>purple")) == 2
    full = mine(candidates, prompts, "green>orange>purple")
    assert {(p.task, p.chosen.grade.value, p.rejected.grade.value) for p in full} >= {("c", "orange", "purple")}
    assert len(full) == 4 + 1 + 2                                     # a: 4 + orange>purple 1; c: 2
    capped = mine(candidates, prompts, "green>orange+purple", max_pairs_per_task=3, seed=1)
    assert len(capped) == 3 and capped == mine(candidates, prompts, "green>orange+purple", max_pairs_per_task=3, seed=1)
    with pytest.raises(ValueError, match="unknown pair policy"):
        mine(candidates, prompts, "orange>green")


def test_identical_answers_never_pair():
    same = [Candidate("a", 0, "x", Grade.GREEN, "passed"), Candidate("a", 1, "x\n", Grade.ORANGE, "wrong")]
    assert mine(same, {"a": ()}) == []


def test_pairs_from_a_run_directory(tmp_path):
    """A run directory as npukb writes it: one task with all three classes, one with a single class,
    a task the case roots do not know, and a result without its completion."""
    spec = load_case(ADD_CUSTOM)
    task = spec.case_id
    run = RunDir(tmp_path / "run")
    run.create(fresh=True)
    run.write_header({"model": "m", "project_level": False})
    good = {**spec.solution}
    run.write_completions([
        Completion(task, 0, files=good),
        Completion(task, 1, text="=== op_host/add_custom.cpp ===\n```cpp\nbroken\n```\n"),
        Completion(task, 2, text="no code at all"),
        Completion("level1/math/elsewhere", 0, text="x"),
    ])
    for r in (result(task, 0, Status.PASSED), result(task, 1, Status.WRONG), result(task, 2, Status.PARSE_ERROR),
              result(task, 3, Status.BUILD_ERROR), result("level1/math/elsewhere", 0, Status.PASSED)):
        run.append_result(r)
    pairs, stats = pairs_from_run(run.path, [spec])
    assert [(p.chosen.sample, p.rejected.sample, p.rejected.grade.value) for p in pairs] == \
        [(0, 1, "orange"), (0, 2, "purple")]
    assert stats.unknown_tasks == ["level1/math/elsewhere"] and stats.without_completion == 1
    row = pairs[0].to_row()
    assert row["prompt"][0]["role"] == "system" and "add_custom" in row["prompt"][1]["content"]
    assert row["chosen"][0]["role"] == "assistant" and "=== op_kernel/add_custom.cpp ===" in row["chosen"][0]["content"]
    assert (row["chosen_class"], row["rejected_class"], row["task"]) == ("green", "orange", task)

    # only one class: no pairs, and the task is named
    only = RunDir(tmp_path / "only")
    only.create(fresh=True)
    only.write_completions([Completion(task, i, text=f"t{i}") for i in range(2)])
    for i in range(2):
        only.append_result(result(task, i, Status.BUILD_ERROR))
    pairs, stats = pairs_from_run(only.path, [spec])
    assert pairs == [] and stats.one_class_tasks == [task] and stats.classes == {"purple": 2}
    folder = write_pairs(tmp_path / "pairs", pairs)
    import datasets

    assert len(datasets.load_from_disk(str(folder))) == 0

    # two one-class rounds of the same prompt (all pass cold, all fail hot) pool into pairs
    green = RunDir(tmp_path / "green")
    green.create(fresh=True)
    green.write_completions([Completion(task, i, files=good) for i in range(2)])
    for i in range(2):
        green.append_result(result(task, i, Status.PASSED))
    assert pairs_from_run(green.path, [spec])[0] == []
    pooled, stats = pairs_from_run([green.path, only.path], [spec])
    assert stats.classes == {"green": 2, "purple": 2} and stats.one_class_tasks == []
    assert {(p.chosen.grade.value, p.rejected.grade.value) for p in pooled} == {("green", "purple")}
    assert {p.rejected.sample for p in pooled} == {2, 3} and {p.chosen.sample for p in pooled} <= {0, 1}
    assert {p.rejected.answer for p in pooled} == {"t0", "t1"}

    with pytest.raises(ValueError, match="no results.jsonl"):
        pairs_from_run(tmp_path, [spec])
    with pytest.raises(ValueError, match="no run directory"):
        pairs_from_run([], [spec])
    assert CASES.is_dir()

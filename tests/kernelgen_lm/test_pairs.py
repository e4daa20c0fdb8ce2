"""Pair mining: classes from statuses, policies, one-class tasks, a run directory as input."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen_lm.pairs import (
    LEGACY_POLICIES,
    POLICIES,
    Candidate,
    Grade,
    canonical_classes,
    canonical_policy,
    grade,
    mine,
    no_pairs_advice,
    pairs_from_run,
    write_pairs,
)
from npukernelbench.cases import load_case
from npukernelbench.generators.base import Completion
from npukernelbench.result import SampleResult, Status
from npukernelbench.store import RunDir

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases"
ADD_CUSTOM = CASES / "level1" / "math" / "add_custom"


def result(task: str, sample: int, status: Status) -> SampleResult:
    return SampleResult(task, 1, "Math", sample, status, message=status.value)


def test_classes_follow_the_paper():
    assert grade(result("t", 0, Status.PASSED)) is Grade.PASSES
    for status in (Status.WRONG, Status.RUNTIME_ERROR, Status.TIMEOUT):
        assert grade(result("t", 0, status)) is Grade.WRONG           # builds, wrong
    for status in (Status.BUILD_ERROR, Status.PARSE_ERROR, Status.REJECTED):
        assert grade(result("t", 0, status)) is Grade.UNBUILT         # does not build


def cands(task: str, grades: str) -> list[Candidate]:
    names = {"p": Grade.PASSES, "w": Grade.WRONG, "u": Grade.UNBUILT}
    return [Candidate(task, i, f"{task} answer {i}", names[g], names[g].value) for i, g in enumerate(grades)]


def test_policies_and_one_class_tasks():
    candidates = cands("a", "ppwu") + cands("b", "ppp") + cands("c", "uwu") + cands("d", "w")
    prompts = {t: ({"role": "user", "content": t},) for t in "abcd"}
    from kernelgen_lm.pairs import MiningStats

    stats = MiningStats()
    pairs = mine(candidates, prompts, "passes>wrong+unbuilt", stats=stats)
    assert [(p.task, p.chosen.sample, p.rejected.sample) for p in pairs] == \
        [("a", 0, 2), ("a", 1, 2), ("a", 0, 3), ("a", 1, 3)]
    assert stats.one_class_tasks == ["b", "d"] and stats.pairs == 4 and stats.candidates == 11
    assert stats.pair_kinds == {"passes>wrong": 2, "passes>unbuilt": 2}
    assert len(mine(candidates, prompts, "passes>wrong")) == 2
    assert len(mine(candidates, prompts, "passes>unbuilt")) == 2
    full = mine(candidates, prompts, "passes>wrong>unbuilt")
    assert {(p.task, p.chosen.grade.value, p.rejected.grade.value) for p in full} >= {("c", "wrong", "unbuilt")}
    assert len(full) == 4 + 1 + 2                                     # a: 4 + wrong>unbuilt 1; c: 2
    capped = mine(candidates, prompts, "passes>wrong+unbuilt", max_pairs_per_task=3, seed=1)
    assert len(capped) == 3
    assert capped == mine(candidates, prompts, "passes>wrong+unbuilt", max_pairs_per_task=3, seed=1)
    with pytest.raises(ValueError, match=r"unknown pair policy 'wrong>passes'; use one of passes>wrong\+unbuilt, "
                                         r"passes>wrong, passes>unbuilt, passes>wrong>unbuilt$"):
        mine(candidates, prompts, "wrong>passes")


def test_the_papers_colour_names_are_aliases():
    """Configs, command lines and files from before the rename spell the classes and policies with the
    AscendKernelGen paper's colours: they read as the descriptive names."""
    assert LEGACY_POLICIES == {"green>orange+purple": "passes>wrong+unbuilt", "green>orange": "passes>wrong",
                               "green>purple": "passes>unbuilt", "green>orange>purple": "passes>wrong>unbuilt"}
    assert set(LEGACY_POLICIES.values()) == set(POLICIES)
    for old, new in LEGACY_POLICIES.items():
        assert canonical_policy(old) == new and canonical_policy(new) == new
    assert canonical_policy("orange>green") == "orange>green"                # unknown stays unknown
    assert (Grade("green"), Grade("orange"), Grade("purple")) == (Grade.PASSES, Grade.WRONG, Grade.UNBUILT)
    assert Grade("passes") is Grade.PASSES
    with pytest.raises(ValueError):
        Grade("blue")
    assert canonical_classes({"green": 2, "purple": 1, "unbuilt": 3}) == {"passes": 2, "unbuilt": 4}

    candidates = cands("a", "ppwu") + cands("c", "uwu")
    prompts = {t: ({"role": "user", "content": t},) for t in "ac"}
    for old, new in LEGACY_POLICIES.items():
        assert mine(candidates, prompts, old) == mine(candidates, prompts, new)
    # an old pairs_stats.json (class counts and policy in colours) gives the same advice as a new one
    assert no_pairs_advice({"green": 2, "purple": 2}, "green>orange") == \
        no_pairs_advice({"passes": 2, "unbuilt": 2}, "passes>wrong")
    assert "every candidate passed (3)" in no_pairs_advice({"green": 3}, "green>orange+purple")
    assert "no candidate passed (4)" in no_pairs_advice({"purple": 4})


def test_identical_answers_never_pair():
    same = [Candidate("a", 0, "x", Grade.PASSES, "passed"), Candidate("a", 1, "x\n", Grade.WRONG, "wrong")]
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
        [(0, 1, "wrong"), (0, 2, "unbuilt")]
    assert stats.unknown_tasks == ["level1/math/elsewhere"] and stats.without_completion == 1
    row = pairs[0].to_row()
    assert row["prompt"][0]["role"] == "system" and "add_custom" in row["prompt"][1]["content"]
    assert row["chosen"][0]["role"] == "assistant" and "=== op_kernel/add_custom.cpp ===" in row["chosen"][0]["content"]
    assert (row["chosen_class"], row["rejected_class"], row["task"]) == ("passes", "wrong", task)

    # only one class: no pairs, and the task is named
    only = RunDir(tmp_path / "only")
    only.create(fresh=True)
    only.write_completions([Completion(task, i, text=f"t{i}") for i in range(2)])
    for i in range(2):
        only.append_result(result(task, i, Status.BUILD_ERROR))
    pairs, stats = pairs_from_run(only.path, [spec])
    assert pairs == [] and stats.one_class_tasks == [task] and stats.classes == {"unbuilt": 2}
    folder = write_pairs(tmp_path / "pairs", pairs)
    import datasets

    assert len(datasets.load_from_disk(str(folder))) == 0

    # two one-class rounds of the same prompt (all pass cold, all fail hot) pool into pairs
    passing = RunDir(tmp_path / "passing")
    passing.create(fresh=True)
    passing.write_completions([Completion(task, i, files=good) for i in range(2)])
    for i in range(2):
        passing.append_result(result(task, i, Status.PASSED))
    assert pairs_from_run(passing.path, [spec])[0] == []
    pooled, stats = pairs_from_run([passing.path, only.path], [spec])
    assert stats.classes == {"passes": 2, "unbuilt": 2} and stats.one_class_tasks == []
    assert {(p.chosen.grade.value, p.rejected.grade.value) for p in pooled} == {("passes", "unbuilt")}
    assert {p.rejected.sample for p in pooled} == {2, 3} and {p.chosen.sample for p in pooled} <= {0, 1}
    assert {p.rejected.answer for p in pooled} == {"t0", "t1"}

    with pytest.raises(ValueError, match="no results.jsonl"):
        pairs_from_run(tmp_path, [spec])
    with pytest.raises(ValueError, match="no run directory"):
        pairs_from_run([], [spec])
    assert CASES.is_dir()

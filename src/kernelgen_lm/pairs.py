"""Preference pairs from executions: every candidate is graded by the benchmark's own pipeline and
paired by class (the AscendKernelGen paper's DPO data, section 4.2).

Classes (:class:`Grade`) of a :class:`~npukernelbench.result.SampleResult`:

- ``passes``: passes (every shape, every seed, the reference checks);
- ``wrong``: builds but is wrong (wrong output, a crash or a timeout at run time);
- ``unbuilt``: does not build (compiler errors, no parseable project, refused by the static checks).

A sample without an outcome (our machinery failed: ``npukernelbench`` raises its infrastructure
error and records nothing) is no candidate at all: it is neither chosen nor rejected.

Policies (which ordered class pairs make a preference pair):

==========================  ==============================================================
``passes>wrong+unbuilt``    the paper's default: chosen passes, rejected wrong or unbuilt
``passes>wrong``            only built-but-wrong negatives (the paper's stronger ablation)
``passes>unbuilt``          only negatives that do not build
``passes>wrong>unbuilt``    the full order: also wrong over unbuilt
==========================  ==============================================================

The paper calls the three classes Green, Orange and Purple: those older spellings (``green``,
``orange``, ``purple`` and policies such as ``green>orange+purple``) are still accepted as aliases
(:data:`LEGACY_GRADES`, :data:`LEGACY_POLICIES`), in settings and in files written before the rename.

Pairs never join two identical answers; a task with candidates of one class only gives none
(counted in the stats as ``one_class_tasks``).
"""

from __future__ import annotations

import enum
import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.result import SampleResult, Status


class Grade(enum.StrEnum):
    PASSES = "passes"
    WRONG = "wrong"          # builds, but is wrong
    UNBUILT = "unbuilt"      # does not build

    @classmethod
    def _missing_(cls, value: object) -> Grade | None:
        """The paper's colour names (``Grade("green")``) read as the classes they name."""
        legacy = LEGACY_GRADES.get(str(value).lower()) if isinstance(value, str) else None
        return cls(legacy) if legacy is not None else None


# The AscendKernelGen paper's colour names for the classes, as older settings and files spell them.
LEGACY_GRADES = {"green": "passes", "orange": "wrong", "purple": "unbuilt"}

WRONG_STATUSES = (Status.WRONG, Status.RUNTIME_ERROR, Status.TIMEOUT)
UNBUILT_STATUSES = (Status.BUILD_ERROR, Status.PARSE_ERROR, Status.REJECTED)

DEFAULT_POLICY = "passes>wrong+unbuilt"
POLICIES: dict[str, tuple[tuple[Grade, Grade], ...]] = {
    "passes>wrong+unbuilt": ((Grade.PASSES, Grade.WRONG), (Grade.PASSES, Grade.UNBUILT)),
    "passes>wrong": ((Grade.PASSES, Grade.WRONG),),
    "passes>unbuilt": ((Grade.PASSES, Grade.UNBUILT),),
    "passes>wrong>unbuilt": ((Grade.PASSES, Grade.WRONG), (Grade.PASSES, Grade.UNBUILT), (Grade.WRONG, Grade.UNBUILT)),
}
# The same policies in the paper's colour names (configs, command lines and stats files from before the rename).
LEGACY_POLICIES = {
    "green>orange+purple": "passes>wrong+unbuilt",
    "green>orange": "passes>wrong",
    "green>purple": "passes>unbuilt",
    "green>orange>purple": "passes>wrong>unbuilt",
}


def canonical_policy(policy: str) -> str:
    """``policy`` under its current name (an old colour spelling mapped to it); anything else unchanged
    (an unknown policy is refused where it is used, naming :data:`POLICIES`)."""
    return LEGACY_POLICIES.get(policy, policy)


def canonical_classes(classes: Mapping[str, int]) -> dict[str, int]:
    """Class counts (``MiningStats.classes``, ``pairs_stats.json``) under the current class names: counts
    a file written before the rename keeps under a colour name are added to the class it names."""
    out: dict[str, int] = {}
    for name, count in classes.items():
        key = LEGACY_GRADES.get(name, name)
        out[key] = out.get(key, 0) + count
    return out


def grade(result: SampleResult) -> Grade:
    if result.status is Status.PASSED:
        return Grade.PASSES
    if result.status in WRONG_STATUSES:
        return Grade.WRONG
    if result.status in UNBUILT_STATUSES:
        return Grade.UNBUILT
    raise ValueError(f"{result.task}[s{result.sample}]: status {result.status!r} has no class")


@dataclass(frozen=True)
class Candidate:
    """One graded answer to a task's prompt."""

    task: str
    sample: int
    answer: str                  # the assistant turn as the model wrote it (or the rendered files)
    grade: Grade
    status: str
    message: str = ""


@dataclass(frozen=True)
class Pair:
    task: str
    prompt: tuple[Mapping[str, str], ...]
    chosen: Candidate
    rejected: Candidate

    def to_row(self) -> dict[str, Any]:
        return {"prompt": [{"role": m["role"], "content": m["content"]} for m in self.prompt],
                "chosen": [{"role": "assistant", "content": self.chosen.answer}],
                "rejected": [{"role": "assistant", "content": self.rejected.answer}],
                "chosen_class": self.chosen.grade.value, "rejected_class": self.rejected.grade.value,
                "chosen_status": self.chosen.status, "rejected_status": self.rejected.status,
                "chosen_sample": self.chosen.sample, "rejected_sample": self.rejected.sample, "task": self.task}


@dataclass
class MiningStats:
    tasks: int = 0
    candidates: int = 0
    classes: Counter = field(default_factory=Counter)
    pairs: int = 0
    pair_kinds: Counter = field(default_factory=Counter)
    one_class_tasks: list[str] = field(default_factory=list)
    unknown_tasks: list[str] = field(default_factory=list)
    without_completion: int = 0
    no_outcome: int = 0          # samples skipped because our machinery failed (set by the sampler)

    def to_json(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "candidates": self.candidates, "classes": dict(self.classes),
                "pairs": self.pairs, "pair_kinds": dict(self.pair_kinds), "one_class_tasks": self.one_class_tasks,
                "unknown_tasks": self.unknown_tasks, "without_completion": self.without_completion,
                "no_outcome": self.no_outcome}


def mine(candidates: Sequence[Candidate], prompts: Mapping[str, Sequence[Mapping[str, str]]],
         policy: str = DEFAULT_POLICY, max_pairs_per_task: int = 0, seed: int = 0,
         stats: MiningStats | None = None) -> list[Pair]:
    """Pairs of ``candidates`` (grouped by task) under ``policy`` (an old colour spelling is read as the
    policy it names); ``prompts`` maps a task to the chat messages its candidates answered. With
    ``max_pairs_per_task`` a seeded subset is kept."""
    policy = canonical_policy(policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown pair policy {policy!r}; use one of {', '.join(POLICIES)}")
    stats = stats if stats is not None else MiningStats()
    by_task: dict[str, list[Candidate]] = defaultdict(list)
    for c in candidates:
        by_task[c.task].append(c)
    rng = random.Random(seed)
    pairs: list[Pair] = []
    for task in sorted(by_task):
        group = sorted(by_task[task], key=lambda c: c.sample)
        stats.tasks += 1
        stats.candidates += len(group)
        stats.classes.update(c.grade.value for c in group)
        if len({c.grade for c in group}) < 2:
            stats.one_class_tasks.append(task)
            continue
        found = []
        for better, worse in POLICIES[policy]:
            for chosen in (c for c in group if c.grade is better):
                for rejected in (c for c in group if c.grade is worse):
                    if chosen.answer.strip() != rejected.answer.strip():
                        found.append(Pair(task, tuple(prompts[task]), chosen, rejected))
        if max_pairs_per_task and len(found) > max_pairs_per_task:
            found = sorted(rng.sample(found, max_pairs_per_task), key=lambda p: (p.chosen.sample, p.rejected.sample))
        pairs.extend(found)
        stats.pair_kinds.update(f"{p.chosen.grade.value}>{p.rejected.grade.value}" for p in found)
    stats.pairs = len(pairs)
    return pairs


def candidates_from_run(run_dir: Path, specs: Mapping[str, Any], stats: MiningStats | None = None
                        ) -> list[Candidate]:
    """Graded candidates of an ``npukb`` run directory (results.jsonl + completions.jsonl). Results of
    tasks not in ``specs`` are counted in ``stats.unknown_tasks`` and skipped."""
    from npukernelbench.extract import render_files
    from npukernelbench.store import RESULTS, RunDir, StoreError

    run = RunDir(Path(run_dir))
    if not (run.path / RESULTS).is_file():
        raise ValueError(f"{run_dir}: no {RESULTS} (not an npukb run directory, or nothing was evaluated yet)")
    try:
        results = run.results()
        completions = run.completions()
    except StoreError as exc:
        raise ValueError(f"run directory {run_dir}: {exc}") from None
    stats = stats if stats is not None else MiningStats()
    out = []
    for r in sorted(results, key=lambda r: (r.task, r.sample)):
        if r.task not in specs:
            if r.task not in stats.unknown_tasks:
                stats.unknown_tasks.append(r.task)
            continue
        completion = completions.get((r.task, r.sample))
        if completion is None:
            stats.without_completion += 1
            continue
        answer = completion.text if completion.text is not None else render_files(dict(completion.files or {}))
        out.append(Candidate(r.task, r.sample, answer, grade(r), r.status.value, r.message))
    return out


def pairs_from_run(run_dir: Path | Sequence[Path], specs: Sequence[Any], policy: str = DEFAULT_POLICY,
                   max_pairs_per_task: int = 0, seed: int = 0, project_level: bool | None = None
                   ) -> tuple[list[Pair], MiningStats]:
    """Preference pairs of a run directory (or of several, pooled: rounds of the same prompts, e.g.
    at different temperatures) whose tasks are among ``specs``. Pooled candidates are numbered on
    across the directories (the second directory's sample 0 of a 4-sample run is sample 4). The
    prompt of each pair is the benchmark prompt of its task (project-level when the first run's
    header says so, or as given)."""
    import dataclasses

    from npukernelbench.prompt import PromptOptions, build_messages
    from npukernelbench.store import RunDir

    run_dirs = [Path(run_dir)] if isinstance(run_dir, (str, Path)) else [Path(d) for d in run_dir]
    if not run_dirs:
        raise ValueError("no run directory to mine pairs from")
    by_id = {s.case_id: s for s in specs}
    if project_level is None:
        project_level = bool(RunDir(run_dirs[0]).header().get("project_level", False))
    stats = MiningStats()
    candidates: list[Candidate] = []
    offset = 0
    for folder in run_dirs:
        found = candidates_from_run(folder, by_id, stats)
        candidates += [dataclasses.replace(c, sample=c.sample + offset) for c in found]
        offset += max((c.sample for c in found), default=-1) + 1
    options = PromptOptions(project_level=project_level)
    prompts = {task: build_messages(by_id[task], options) for task in {c.task for c in candidates}}
    pairs = mine(candidates, prompts, policy, max_pairs_per_task, seed, stats)
    return pairs, stats


def pair_features() -> Any:
    import datasets

    turns = [{"role": datasets.Value("string"), "content": datasets.Value("string")}]
    return datasets.Features({
        "prompt": turns, "chosen": turns, "rejected": turns,
        "chosen_class": datasets.Value("string"), "rejected_class": datasets.Value("string"),
        "chosen_status": datasets.Value("string"), "rejected_status": datasets.Value("string"),
        "chosen_sample": datasets.Value("int64"), "rejected_sample": datasets.Value("int64"),
        "task": datasets.Value("string"),
    })


def write_pairs(folder: Path, pairs: Sequence[Pair]) -> Path:
    """The pairs as a ``datasets`` folder (+ ``folder.jsonl``): prompt, chosen, rejected (chat turns),
    their classes and statuses, sample indices and the task."""
    from kernelgen_lm.datasets_io import save_rows

    return save_rows(folder, [p.to_row() for p in pairs], features=pair_features())


def no_pairs_advice(classes: Mapping[str, int], policy: str = DEFAULT_POLICY) -> str:
    """One line saying what to change when sampling found no pair, from the candidates' classes (class
    and policy names as written before the rename are read too)."""
    classes = canonical_classes(classes)
    policy = canonical_policy(policy)
    total = sum(classes.values())
    passes = classes.get(Grade.PASSES.value, 0)
    if total == 0:
        return ("no candidate was graded: check the run directory's results (OUT/run) and the model spec, "
                "then sample again")
    if passes == total:
        return (f"every candidate passed ({total}): sample hotter or more (--temperature 1.5, --samples 8) so "
                "that some fail")
    if passes == 0:
        return (f"no candidate passed ({total}): train the SFT model longer (--max_steps) or sample colder "
                "(--temperature 0.5) so that some pass")
    if policy == "passes>wrong" and not classes.get(Grade.WRONG.value):
        return (f"no candidate built but was wrong (the policy passes>wrong needs one): use policy {DEFAULT_POLICY}")
    if policy == "passes>unbuilt" and not classes.get(Grade.UNBUILT.value):
        return f"no candidate failed to build (the policy passes>unbuilt needs one): use policy {DEFAULT_POLICY}"
    return (f"each task's candidates were all of one class ({dict(classes)}): sample more per task (--samples 8) "
            "or at another temperature")

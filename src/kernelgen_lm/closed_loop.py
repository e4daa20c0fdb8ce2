"""The closed loop, end to end on one machine: measure, SFT, measure, sample preferences, DPO, measure.

A tiny Qwen3 model (built offline; its BPE tokenizer is trained on the tasks' prompts and expert
solutions, with merges across word boundaries capped at ``max_token_chars``, so a solution is a few
hundred tokens) starts from noise. Every stage uses the same code as the commands:

1. CR/ER before training: greedy, one sample per task, through the benchmark's generator registry
   and pipeline (:mod:`kernelgen_lm.rollouts`);
2. SFT (:func:`kernelgen_lm.sft.run_sft`) on the tasks' expert solutions under the benchmark prompt
   (:func:`kernelgen_lm.sft_data.expert_rows`), then CR/ER again;
3. candidates sampled at ``temperature`` and graded (:func:`kernelgen_lm.sampling.run_sample`) into
   passes/wrong/unbuilt pairs; if every candidate lands in one class the loop samples again, hotter
   when all pass and colder when none does, bisecting once it has seen both; candidates of rounds
   with different classes are pooled into pairs;
4. DPO (:func:`kernelgen_lm.dpo.run_dpo`) on the pairs; its reward accuracy; CR/ER again.

The loop's own hyper-parameters are for a model of ~0.3M parameters that must memorise three
solutions in a few minutes of CPU: a learning rate ~10^4 times the paper's full fine-tuning preset
(which is for billions of parameters), a global batch of the three conversations, no packing, and
one CPU thread (on a shared 2-core machine, two torch threads spin against each other and are
several times slower than one).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

DEFAULT_TASKS = ("level1/math/add_custom", "level1/tensorcreation/fill", "level1/math/strideslice_neg_concat_v2")


@dataclass(frozen=True)
class LoopSettings:
    cases: tuple[Path, ...]
    out: Path
    tasks: tuple[str, ...] = DEFAULT_TASKS
    # the tiny model and its tokenizer
    vocab_size: int = 4096
    max_token_chars: int = 16
    hidden_size: int = 128
    layers: int = 2
    model_seed: int = 0
    # SFT
    sft_steps: int = 64
    sft_learning_rate: float = 1e-2
    # measurement and sampling
    max_tokens: int = 1000
    samples: int = 4
    temperature: float = 1.0
    top_p: float = 0.95                          # the benchmark's default nucleus
    temperature_retries: int = 4                 # more rounds when every candidate has one class: hotter
                                                 # when all pass, colder when none does (TemperatureSearch)
    max_pairs_per_task: int = 8                  # a seeded subset of each task's pairs (DPO's evaluation pass
                                                 # scores every pair: many near-copies only cost time)
    # DPO
    dpo_steps: int = 8
    dpo_learning_rate: float = 1e-4             # 1e-3 separates the pairs too but unlearns the other tasks
    beta: float = 0.1
    threads: int = 1
    toolchain: str = "ascendc-sim"


@dataclass
class TemperatureSearch:
    """The sampling temperature when a round's candidates all land in one class: 1.5 times hotter
    after a round where all pass, 1.5 times colder after one where none does, and, once both a
    too-cold and a too-hot temperature are known, their geometric mean (a sharply fine-tuned model
    can go from "all identical and passing" to "all noise" within a factor of 1.5)."""

    too_cold: float | None = None        # the hottest temperature seen where every candidate passed
    too_hot: float | None = None         # the coldest temperature seen where no candidate passed

    def next(self, temperature: float, all_pass: bool) -> float:
        if all_pass:
            self.too_cold = max(self.too_cold or temperature, temperature)
        else:
            self.too_hot = min(self.too_hot or temperature, temperature)
        if self.too_cold is not None and self.too_hot is not None and self.too_cold < self.too_hot:
            return (self.too_cold * self.too_hot) ** 0.5
        return temperature * 1.5 if all_pass else temperature / 1.5


def _measure(specs: list[Any], model: Path, out: Path, settings: LoopSettings) -> dict[str, float]:
    from kernelgen_lm.rollouts import RolloutSettings, roll_out

    rollout = roll_out(specs, RolloutSettings(model=f"hf:{model}", samples=1, temperature=0.0,
                                              max_tokens=settings.max_tokens, toolchain=settings.toolchain,
                                              seeds=1), out, log=lambda line: None)
    if rollout.no_outcome:
        raise RuntimeError(f"{len(rollout.no_outcome)} measurement sample(s) had no outcome (our machinery "
                           f"failed): {rollout.no_outcome[0]['cause']}")
    return rollout.rates(1)


def run_loop(settings: LoopSettings, log: Any = None) -> dict[str, Any]:
    import torch

    from kernelgen_lm.config import DPOSettings, SampleSettings, SFTSettings, load_settings
    from kernelgen_lm.dpo import run_dpo
    from kernelgen_lm.pairs import Grade, pairs_from_run, write_pairs
    from kernelgen_lm.sampling import run_sample
    from kernelgen_lm.sft import run_sft
    from kernelgen_lm.sft_data import expert_rows, write_expert_dataset
    from kernelgen_lm.tasks import select_tasks
    from kernelgen_lm.tiny_model import build_tiny_model

    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    started = time.monotonic()
    torch.set_num_threads(settings.threads)
    out = Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)
    specs = select_tasks(settings.cases, settings.tasks)
    rows = expert_rows(specs)
    texts = [m["content"] for row in rows for m in row["messages"]]
    base = build_tiny_model(out / "base-model", seed=settings.model_seed, vocab_size=settings.vocab_size,
                            extra_text=texts, hidden_size=settings.hidden_size, num_hidden_layers=settings.layers,
                            word_boundaries=False, max_token_chars=settings.max_token_chars)
    figures: dict[str, Any] = {"tasks": [s.case_id for s in specs]}
    stage_seconds: dict[str, float] = {}

    def lap(name: str, since: float) -> float:
        now = time.monotonic()
        stage_seconds[name] = round(now - since, 1)
        log(f"closed loop: {name} done in {now - since:.0f} s")
        return now

    t = time.monotonic()
    before = _measure(specs, base, out / "measure-before", settings)
    figures.update(cr_before=before["cr"], er_before=before["er"])
    t = lap("measure_before", t)

    data, _ = write_expert_dataset(settings.cases, out / "sft-data", settings.tasks)
    common = {"device": "cpu", "cpu_threads": settings.threads, "report_to": ["none"], "logging_steps": 5,
              "save_total_limit": 1,
              "per_device_batch_size": len(rows), "global_batch_size": len(rows), "weight_decay": 0.0}
    sft = load_settings(SFTSettings, data={
        **common, "model": str(base), "dataset": [str(data)], "output_dir": str(out / "sft"), "preset": "full",
        "learning_rate": settings.sft_learning_rate, "lr_scheduler_type": "constant_with_warmup",
        "warmup_ratio": 0.05, "max_steps": settings.sft_steps,
        "max_length": 4096, "packing": False, "save_steps": settings.sft_steps})
    sft_result = run_sft(sft, log=log)
    figures["sft_loss"] = _last(sft_result.log_history, "loss")
    t = lap("sft", t)
    after_sft = _measure(specs, out / "sft", out / "measure-after-sft", settings)
    figures.update(cr_after_sft=after_sft["cr"], er_after_sft=after_sft["er"])
    t = lap("measure_after_sft", t)

    pairs = 0
    pairs_dir = None
    rounds: list[dict[str, Any]] = []
    search = TemperatureSearch()
    temperature = settings.temperature
    for _ in range(1 + settings.temperature_retries):
        sample_out = out / f"sample-t{temperature:.3g}"
        sampled = run_sample(load_settings(SampleSettings, data={
            "model": f"hf:{out / 'sft'}", "cases": [str(c) for c in settings.cases], "tasks": list(settings.tasks),
            "include_eval_tasks": True, "out": str(sample_out), "samples": settings.samples,
            "temperature": temperature, "top_p": settings.top_p, "max_tokens": settings.max_tokens, "seeds": 1,
            "toolchain": settings.toolchain, "resume": False,
            "max_pairs_per_task": settings.max_pairs_per_task}), log=log)
        classes = sampled.stats["classes"]
        rounds.append({"temperature": round(temperature, 4), "classes": classes, "pairs": sampled.pairs,
                       "run": str(sample_out / "run")})
        pairs, pairs_dir = sampled.pairs, sampled.pairs_dir
        if not pairs and len(rounds) > 1:
            # one class per round, but not the same one in every round: the rounds' candidates answer
            # the same prompts, so they pair across rounds (a pass at one temperature over a failure
            # at another)
            pooled, stats = pairs_from_run([Path(r["run"]) for r in rounds], specs,
                                           max_pairs_per_task=settings.max_pairs_per_task)
            if pooled:
                pairs, pairs_dir = len(pooled), write_pairs(out / "sample-pooled" / "pairs", pooled)
                log(f"closed loop: {pairs} pair(s) pooled across {len(rounds)} sampling rounds ({dict(stats.classes)})")
        if pairs:
            break
        log(f"closed loop: no pairs at temperature {temperature:.3g} (classes {classes})")
        temperature = search.next(temperature, all_pass=set(classes) == {Grade.PASSES.value})
    figures.update(pairs=pairs, sample_rounds=[{k: v for k, v in r.items() if k != "run"} for r in rounds],
                   pooled=bool(pairs and rounds[-1]["pairs"] == 0))
    t = lap("sample", t)

    if pairs and pairs_dir is not None:
        dpo = load_settings(DPOSettings, data={
            **common, "model": str(out / "sft"), "pairs": [str(pairs_dir)], "output_dir": str(out / "dpo"),
            "preset": "full", "learning_rate": settings.dpo_learning_rate, "beta": settings.beta,
            "max_steps": settings.dpo_steps, "warmup_ratio": 0.1, "max_length": 4096,
            "per_device_batch_size": min(pairs, 2), "global_batch_size": min(pairs, 4),
            "save_steps": settings.dpo_steps, "trainer": {"precompute_ref_log_probs": True}})
        dpo_result = run_dpo(dpo, log=log)
        figures["dpo_reward_accuracy"] = dpo_result.metrics.get("reward_accuracy")
        figures["dpo_reward_margin"] = dpo_result.metrics.get("reward_margin")
        t = lap("dpo", t)
        after_dpo = _measure(specs, out / "dpo", out / "measure-after-dpo", settings)
        figures.update(cr_after_dpo=after_dpo["cr"], er_after_dpo=after_dpo["er"])
        lap("measure_after_dpo", t)
    else:
        figures.update(dpo_reward_accuracy=None, cr_after_dpo=None, er_after_dpo=None)
    figures["stage_seconds"] = stage_seconds
    figures["seconds"] = round(time.monotonic() - started, 1)
    figures["settings"] = json.loads(json.dumps(asdict(settings), default=str))
    (out / "closed_loop.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


def _last(history: list[dict[str, Any]], key: str) -> float | None:
    values = [h[key] for h in history if key in h]
    return values[-1] if values else None

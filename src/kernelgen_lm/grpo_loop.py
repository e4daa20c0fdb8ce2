"""The closed online loop on one machine: a short SFT warm start, measure, GRPO, measure.

The pieces are the closed loop's (:mod:`kernelgen_lm.closed_loop`): a tiny Qwen3 model built offline
with a BPE tokenizer trained on the tasks' prompts and expert solutions, and SFT on those solutions
under the benchmark prompt. Here the SFT is deliberately short: GRPO learns from the reward's spread
within a group of completions of one prompt, so the warm-started policy must sometimes pass and
sometimes fail at the sampling temperature (a policy that only writes noise gets -1 for every
completion and learns nothing; one that has memorised its solutions passes every time).

1. tiny model + tokenizer; SFT for ``sft_steps`` (:func:`kernelgen_lm.sft.run_sft`);
2. measurement: ``samples`` completions per task at ``temperature`` through the benchmark's generator
   registry and pipeline (:mod:`kernelgen_lm.rollouts`): mean shaped reward
   (:func:`kernelgen_lm.rewards.reward_of`) and ER (pass@1 over the samples);
3. ``kernelgen-lm grpo`` (:func:`kernelgen_lm.grpo.run_grpo`) from the SFT model for ``grpo_steps``
   steps, every completion rewarded by the same pipeline;
4. the same measurement (same seed, same sampling settings) of the GRPO model.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kernelgen_lm.closed_loop import DEFAULT_TASKS


@dataclass(frozen=True)
class GRPOLoopSettings:
    cases: tuple[Path, ...]
    out: Path
    tasks: tuple[str, ...] = DEFAULT_TASKS
    # the tiny model and its tokenizer (as in the closed loop)
    vocab_size: int = 4096
    max_token_chars: int = 32
    hidden_size: int = 128
    layers: int = 2
    model_seed: int = 0
    # the SFT warm start: short on purpose (see the module's docstring); measured on the three default
    # tasks: 40 steps -> every sample a parse error, 46 -> ER 0.08, 48 -> ER 0.33, 56 -> ER 1.0
    sft_steps: int = 48
    sft_learning_rate: float = 1e-2
    # measurement (before and after GRPO) and GRPO sampling
    samples: int = 8
    temperature: float = 1.0
    top_p: float = 0.95
    max_tokens: int = 700
    measure_seed: int = 0
    # GRPO
    grpo_steps: int = 8
    num_generations: int = 4                   # completions per prompt (one group)
    grpo_learning_rate: float = 3e-4           # 1e-3 and 2e-3 made the policy worse step by step (measured)
    beta: float = 0.0
    negative_advantage_scale: float = 1.0     # GRPOSettings.negative_advantage_scale
    grpo_optimizer: str = "adamw_torch"       # a transformers optim name ("sgd": steps scale with the gradient)
    mask_truncated: bool = False               # trl's mask_truncated_completions: clipped completions get no loss
    jobs: int = 2                              # evaluation worker processes
    threads: int = 1
    toolchain: str = "ascendc-sim"


def measure(specs: list[Any], model: Path, out: Path, settings: GRPOLoopSettings) -> dict[str, Any]:
    """Mean shaped reward and ER of ``samples`` completions per task at the loop's temperature."""
    from kernelgen_lm.rewards import reward_of
    from kernelgen_lm.rollouts import RolloutSettings, roll_out

    rollout = roll_out(specs, RolloutSettings(model=f"hf:{model}", samples=settings.samples,
                                              temperature=settings.temperature, top_p=settings.top_p,
                                              max_tokens=settings.max_tokens, seed=settings.measure_seed,
                                              toolchain=settings.toolchain, seeds=1), out, log=lambda line: None)
    if rollout.no_outcome:
        raise RuntimeError(f"{len(rollout.no_outcome)} measurement sample(s) had no outcome (our machinery "
                           f"failed): {rollout.no_outcome[0]['cause']}")
    rewards = [r for r in (reward_of(result) for result in rollout.results) if r is not None]
    statuses: dict[str, int] = {}
    for result in rollout.results:
        statuses[result.status.value] = statuses.get(result.status.value, 0) + 1
    return {"reward": round(sum(rewards) / len(rewards), 4) if rewards else None,
            "er": rollout.rates(settings.samples)["er"], "cr": rollout.rates(settings.samples)["cr"],
            "statuses": dict(sorted(statuses.items()))}


def sft_warm_start(specs: list[Any], settings: GRPOLoopSettings, log: Any) -> tuple[Path, dict[str, Any]]:
    """The tiny model, fine-tuned for ``sft_steps`` on the tasks' expert solutions; its directory."""
    from kernelgen_lm.config import SFTSettings, load_settings
    from kernelgen_lm.sft import run_sft
    from kernelgen_lm.sft_data import expert_rows, write_expert_dataset
    from kernelgen_lm.tiny_model import build_tiny_model

    out = Path(settings.out)
    rows = expert_rows(specs)
    texts = [m["content"] for row in rows for m in row["messages"]]
    base = build_tiny_model(out / "base-model", seed=settings.model_seed, vocab_size=settings.vocab_size,
                            extra_text=texts, hidden_size=settings.hidden_size, num_hidden_layers=settings.layers,
                            word_boundaries=False, max_token_chars=settings.max_token_chars)
    data, _ = write_expert_dataset(settings.cases, out / "sft-data", settings.tasks)
    sft = load_settings(SFTSettings, data={
        "device": "cpu", "cpu_threads": settings.threads, "report_to": ["none"], "logging_steps": 5,
        "save_total_limit": 1, "per_device_batch_size": len(rows), "global_batch_size": len(rows),
        "weight_decay": 0.0, "model": str(base), "dataset": [str(data)], "output_dir": str(out / "sft"),
        "preset": "full", "learning_rate": settings.sft_learning_rate, "lr_scheduler_type": "constant_with_warmup",
        "warmup_ratio": 0.05, "max_steps": settings.sft_steps, "max_length": 4096, "packing": False,
        "save_steps": settings.sft_steps})
    result = run_sft(sft, log=log)
    losses = [h["loss"] for h in result.log_history if "loss" in h]
    return out / "sft", {"sft_loss": losses[-1] if losses else None}


def grpo_stage(model: Path, settings: GRPOLoopSettings, log: Any) -> dict[str, Any]:
    """``kernelgen-lm grpo`` from ``model``: one group per task per step; its metrics."""
    from kernelgen_lm.config import GRPOSettings, load_settings
    from kernelgen_lm.grpo import run_grpo

    batch = settings.num_generations * len(settings.tasks)
    grpo = load_settings(GRPOSettings, data={
        "model": str(model), "cases": [str(c) for c in settings.cases], "tasks": list(settings.tasks),
        "include_eval_tasks": True, "output_dir": str(Path(settings.out) / "grpo"), "preset": "full",
        "learning_rate": settings.grpo_learning_rate, "lr_scheduler_type": "constant", "warmup_ratio": 0.0,
        "weight_decay": 0.0, "max_steps": settings.grpo_steps, "num_generations": settings.num_generations,
        "per_device_batch_size": batch, "global_batch_size": batch, "max_completion_length": settings.max_tokens,
        "temperature": settings.temperature, "top_p": settings.top_p, "beta": settings.beta,
        "negative_advantage_scale": settings.negative_advantage_scale,
        "toolchain": settings.toolchain, "jobs": settings.jobs, "device": "cpu", "cpu_threads": settings.threads,
        "report_to": ["none"], "logging_steps": 1, "save_steps": settings.grpo_steps, "save_total_limit": 1,
        "seed": settings.model_seed, "trainer": {"optim": settings.grpo_optimizer,
                                                   "mask_truncated_completions": settings.mask_truncated}})
    return run_grpo(grpo, log=log).metrics


def run_grpo_loop(settings: GRPOLoopSettings, log: Any = None) -> dict[str, Any]:
    """SFT warm start, measure, GRPO, measure; the figures (also written to ``out/grpo_loop.json``)."""
    import torch

    from kernelgen_lm.tasks import select_tasks

    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    started = time.monotonic()
    torch.set_num_threads(settings.threads)
    out = Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)
    specs = select_tasks(settings.cases, settings.tasks)
    figures: dict[str, Any] = {"tasks": [s.case_id for s in specs]}
    stage_seconds: dict[str, float] = {}

    def lap(name: str, since: float) -> float:
        now = time.monotonic()
        stage_seconds[name] = round(now - since, 1)
        log(f"grpo loop: {name} done in {now - since:.0f} s")
        return now

    t = time.monotonic()
    sft_model, sft_figures = sft_warm_start(specs, settings, log)
    figures.update(sft_figures)
    t = lap("sft", t)
    before = measure(specs, sft_model, out / "measure-before", settings)
    figures.update(reward_before=before["reward"], er_before=before["er"], cr_before=before["cr"],
                   statuses_before=before["statuses"])
    log(f"grpo loop: before GRPO: mean reward {before['reward']}, ER {before['er']:.3f} ({before['statuses']})")
    t = lap("measure_before", t)
    metrics = grpo_stage(sft_model, settings, log)
    steps = max(1, settings.grpo_steps)
    figures.update(grpo_reward_first=metrics.get("reward_first"), grpo_reward_last=metrics.get("reward_last"),
                   evaluations=metrics.get("evaluations"), evals_per_second=metrics.get("evals_per_second"),
                   grpo_verdicts=metrics.get("verdicts"), no_outcome=metrics.get("no_outcome"),
                   seconds_per_step=round(float(metrics.get("wall_seconds") or 0.0) / steps, 1))
    t = lap("grpo", t)
    after = measure(specs, out / "grpo", out / "measure-after", settings)
    figures.update(reward_after=after["reward"], er_after=after["er"], cr_after=after["cr"],
                   statuses_after=after["statuses"])
    log(f"grpo loop: after GRPO: mean reward {after['reward']}, ER {after['er']:.3f} ({after['statuses']})")
    lap("measure_after", t)
    figures["stage_seconds"] = stage_seconds
    figures["seconds"] = round(time.monotonic() - started, 1)
    figures["settings"] = json.loads(json.dumps(asdict(settings), default=str))
    (out / "grpo_loop.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures

"""``kernelgen-lm grpo``: online RL with trl's ``GRPOTrainer`` and the execution reward of
``kernelgen_lm.rewards`` (the benchmark's one evaluation pipeline), full or LoRA.

The prompts are the benchmark's own (``npukernelbench.prompt.build_messages``) for the tasks of the
training split (``eval_tasks`` / ``eval_share`` leave the evaluation split out, as ``sample`` does);
every row carries its ``task`` id, which trl hands to the reward function with the completions.
Each step the ``num_generations`` completions of a prompt are evaluated in ``jobs`` worker
processes (the pipeline's timeouts and build cache) and shaped by verdict (``reward`` settings);
with ``reward_backend: ray`` by ``jobs`` Ray actors on ``ray_address`` (``kernelgen_lm.reward_pool``).
With ``turns`` > 1 a failing completion is repaired over further turns with the current policy and
its feedback (``kernelgen_lm.repair_turns``), and gets the discounted reward of the final turn.
A completion whose evaluation failed in our own machinery gets the reward None: trl (1.16) leaves it
out of its group's mean and standard deviation and gives it a zero advantage, so it neither helps
nor hurts the policy. With ``use_vllm`` (vLLM installed) trl generates with vLLM (``engine``: its
``vllm_*`` settings, colocate mode by default).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kernelgen_lm.config import ConfigError, GRPOSettings
from kernelgen_lm.sft import TrainResult, write_record

MIN_TRL = (1, 16)      # the first trl whose GRPOTrainer keeps None rewards out of the advantage (tested)


def completion_text(completion: Any) -> str:
    """The text of one trl completion: a string, or a list of chat messages (the assistant's)."""
    if isinstance(completion, str):
        return completion
    return "".join(str(m.get("content") or "") for m in completion if m.get("role", "assistant") == "assistant")


class ExecutionReward:
    """trl reward function: (prompts, completions, task=[...]) -> one reward (or None) per completion."""

    __name__ = "execution"

    def __init__(self, specs: Mapping[str, Any], shaping: Any, *, toolchain: str = "ascendc-sim",
                 shapes: str = "static", shape_examples: int = 4, jobs: int = 1, scratch: Path | None = None,
                 log: Any = None, pool: Any = None, turns: int = 1, turn_discount: float = 1.0,
                 respond: Any = None) -> None:
        self.specs = dict(specs)
        self.pool = pool                  # a kernelgen_lm.reward_pool.RayRewardPool, or None: worker processes here
        self.turns, self.turn_discount = turns, turn_discount
        self.respond = respond            # multi-turn repair: answers follow-up conversations with the policy
        self.final_turns: Counter[int] = Counter()
        self.shaping = shaping
        self.toolchain, self.shapes, self.shape_examples, self.jobs = toolchain, shapes, shape_examples, jobs
        self.scratch = scratch
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.verdicts: Counter[str] = Counter()
        self.evaluations = 0
        self.seconds = 0.0
        self.batches = 0

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], task: Sequence[str] | None = None,
                 log_metric: Any = None, **_: Any) -> list[float | None]:
        from kernelgen_lm.rewards import score_completions

        if task is None:
            raise ValueError("the prompt rows carry no 'task' column: the reward cannot tell which case a "
                             "completion answers")
        unknown = sorted({t for t in task if t not in self.specs})
        if unknown:
            raise ValueError(f"task {unknown[0]!r} is not one of the training tasks")
        started = time.monotonic()
        items = [(self.specs[t], completion_text(c)) for t, c in zip(task, completions, strict=True)]

        def score(batch: list[tuple[Any, str]]) -> list[Any]:
            if self.pool is not None:
                return self.pool.scored([text for _, text in batch], [spec.case_id for spec, _ in batch])
            return score_completions(batch, shaping=self.shaping, toolchain=self.toolchain, shapes=self.shapes,
                                     shape_examples=self.shape_examples, scratch=self.scratch, jobs=self.jobs)

        scored = score(items)
        episode_rewards = None
        if self.turns > 1:
            from kernelgen_lm.repair_turns import run_episodes

            episodes = run_episodes(prompts, items, scored, score, self.respond, self.turns, self.turn_discount)
            episode_rewards = [e.reward for e in episodes]
            turns_used = Counter(e.final_turn for e in episodes if e.reward is not None)
            self.final_turns.update(turns_used)
            self.log("kernelgen-lm grpo: repair episodes, final turn: "
                     + ", ".join(f"turn {t}: {n}" for t, n in sorted(turns_used.items())))
            if callable(log_metric):
                log_metric("execution/repaired", sum(1 for e in episodes if e.final_turn > 1
                                                     and not isinstance(e.judged[-1].outcome, str)
                                                     and e.judged[-1].outcome.passed) / len(episodes))
        seconds = time.monotonic() - started
        self.batches += 1
        self.evaluations += len(scored)
        self.seconds += seconds
        kinds = Counter(s.outcome.status.value if s.reward is not None else "no_outcome" for s in scored)
        self.verdicts.update(kinds)
        rewards = episode_rewards if episode_rewards is not None else [s.reward for s in scored]
        given = [r for r in rewards if r is not None]
        mean = f"{sum(given) / len(given):.3f}" if given else "n/a"
        self.log(f"kernelgen-lm grpo: batch {self.batches}: {len(scored)} completions evaluated in {seconds:.1f} s "
                 f"({len(scored) / max(seconds, 1e-9):.2f}/s), mean reward {mean}, "
                 + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
        if callable(log_metric):          # trl logs these with the step's loss and reward (averaged per step)
            log_metric("execution/passed", kinds.get("passed", 0) / len(scored))
            log_metric("execution/built", sum(1 for s in scored if s.reward is not None and s.outcome.built)
                       / len(scored))
            log_metric("execution/no_outcome", kinds.get("no_outcome", 0) / len(scored))
            log_metric("execution/evals_per_second", len(scored) / max(seconds, 1e-9))
        for s in scored:
            if s.reward is None:
                self.log(f"kernelgen-lm grpo: no reward (left out of the advantage): {s.outcome}")
        return rewards


def scale_negative_advantages(advantages: Any, scale: float) -> Any:
    """``advantages`` (a tensor) with every negative entry multiplied by ``scale`` (1: unchanged)."""
    import torch

    if scale == 1.0:
        return advantages
    return torch.where(advantages < 0, advantages * scale, advantages)


def trainer_class(negative_advantage_scale: float) -> type:
    """trl's ``GRPOTrainer``, or a subclass that scales the negative advantages of every generation batch.

    With ``scale`` < 1 the completions that did worse than their group's mean push the policy away from
    themselves less (0: not at all, so the update only raises the better-than-average completions,
    like fine-tuning on them weighted by their advantage). A small policy that has memorised a long
    solution is easily broken by the negative part: its failing completions are long runs of noise,
    and lowering their tokens' probabilities raises the entropy everywhere (measured in
    docs/kernelgen-lm.md)."""
    from trl import GRPOTrainer

    if negative_advantage_scale == 1.0:
        return GRPOTrainer

    class ScaledNegativeGRPOTrainer(GRPOTrainer):
        def _generate_and_score_completions(self, inputs: Any) -> Any:
            output = super()._generate_and_score_completions(inputs)
            output["advantages"] = scale_negative_advantages(output["advantages"], negative_advantage_scale)
            return output

    return ScaledNegativeGRPOTrainer


def _check_trl() -> None:
    import trl

    version = tuple(int(p) for p in trl.__version__.split(".")[:2] if p.isdigit())
    if version < MIN_TRL:
        raise ConfigError(f"kernelgen-lm grpo needs trl >= {'.'.join(map(str, MIN_TRL))} (installed: "
                          f"{trl.__version__}): earlier GRPOTrainers may count a missing reward as 0")


def grpo_arguments(settings: GRPOSettings, log: Any) -> dict[str, Any]:
    """Keyword arguments of trl's ``GRPOConfig``."""
    import importlib.util

    from trl import GRPOConfig

    from kernelgen_lm.trainer_arguments import common_arguments

    args = common_arguments(settings, GRPOConfig, log)
    args.update(max_steps=settings.max_steps, num_generations=settings.num_generations,
                max_completion_length=settings.max_completion_length, temperature=settings.temperature,
                top_p=settings.top_p, beta=settings.beta, use_vllm=settings.use_vllm)
    if settings.use_vllm:
        if importlib.util.find_spec("vllm") is None:
            raise ConfigError("use_vllm: vLLM is not installed here (pip install vllm, or use_vllm: false)")
        args["vllm_mode"] = "colocate"
        for key, value in settings.engine.items():
            args[f"vllm_{key}"] = value
    elif settings.engine:
        raise ConfigError("engine: vLLM settings given but use_vllm is false")
    known = set(GRPOConfig.__dataclass_fields__)
    unknown = sorted(k for k in args if k not in known)
    if unknown:
        raise ConfigError(f"{unknown[0].removeprefix('vllm_')}: not a setting of trl's GRPOConfig"
                          + (" (engine keys are GRPOConfig's vllm_* names without the prefix)"
                             if unknown[0].startswith("vllm_") else ""))
    return args


def prompt_rows(specs: Sequence[Any], project_level: bool = False) -> list[dict[str, Any]]:
    """One row per task: the benchmark's prompt messages and the task id."""
    from npukernelbench.prompt import PromptOptions, build_messages

    options = PromptOptions(project_level=project_level)
    return [{"prompt": [dict(m) for m in build_messages(spec, options)], "task": spec.case_id} for spec in specs]


def reward_pool(settings: GRPOSettings, log: Any) -> Any:
    """``reward_backend: ray``: a RayRewardPool of ``jobs`` actors on ``ray_address``; local: None."""
    if settings.reward_backend != "ray":
        return None
    from kernelgen_lm.reward_pool import RayRewardPool

    return RayRewardPool(settings.ray_address or None, workers=settings.jobs, cases=settings.cases,
                         toolchain=settings.toolchain, shaping=settings.reward, shapes=settings.shapes,
                         shape_examples=settings.shape_examples, timeout=settings.ray_timeout, log=log)


def build_grpo_trainer(settings: GRPOSettings, log: Any = None) -> tuple[Any, ExecutionReward, str | None]:
    """The ``GRPOTrainer`` of ``settings``, its reward function and the checkpoint it would resume from."""
    from datasets import Dataset
    from trl import GRPOConfig

    from kernelgen_lm.tasks import select_tasks, training_split
    from kernelgen_lm.trainer_arguments import check_model, checkpoint_to_resume, load_tokenizer, lora_config
    from npukernelbench.options import load_toolchain

    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    _check_trl()
    check_model(settings.model)
    specs = select_tasks(settings.cases, settings.tasks)
    train, held = training_split(specs, settings.eval_tasks, settings.eval_share)
    if settings.include_eval_tasks:
        train, held = specs, []
    if not train:
        raise ValueError(f"every selected task ({len(specs)}) is in the evaluation split; set include_eval_tasks: "
                         "true, lower eval_share or change tasks")
    reason = load_toolchain(settings.toolchain).unavailable_reason()
    if reason:
        raise RuntimeError(f"toolchain {settings.toolchain!r} cannot run here: {reason}")
    scratch = Path(settings.output_dir) / "reward-scratch"  # type: ignore[arg-type]
    scratch.mkdir(parents=True, exist_ok=True)
    args = grpo_arguments(settings, log)
    tokenizer = load_tokenizer(settings.model)
    resume = checkpoint_to_resume(settings)
    if settings.turns > 1 and settings.use_vllm:
        raise ConfigError("turns: multi-turn repair answers with the policy in memory (transformers); it does not "
                          "run with use_vllm yet")
    pool = reward_pool(settings, log)
    reward = ExecutionReward({s.case_id: s for s in train}, settings.reward, toolchain=settings.toolchain,
                             shapes=settings.shapes, shape_examples=settings.shape_examples, jobs=settings.jobs,
                             scratch=scratch, log=log, pool=pool, turns=settings.turns,
                             turn_discount=settings.turn_discount)
    log(f"kernelgen-lm grpo: {settings.model} on {len(train)} task(s) ({len(held)} evaluation task(s) left out), "
        f"{settings.num_generations} completions per prompt, preset {settings.preset}, lr {settings.learning_rate:g}, "
        f"{settings.max_steps} steps, {settings.jobs} evaluation worker(s)"
        + (f", negative advantages x{settings.negative_advantage_scale:g}"
           if settings.negative_advantage_scale != 1.0 else "")
        + (f" on Ray ({settings.ray_address or 'a local cluster'})" if pool is not None else "")
        + (", vLLM generation" if settings.use_vllm else "") + (f", resuming from {resume}" if resume else ""))
    trainer_type = trainer_class(settings.negative_advantage_scale)
    try:
        trainer = trainer_type(model=settings.model, reward_funcs=[reward], args=GRPOConfig(**args),
                               train_dataset=Dataset.from_list(prompt_rows(train, settings.project_level)),
                               processing_class=tokenizer,
                               peft_config=lora_config(settings.lora) if settings.preset == "lora" else None)
    except BaseException:
        if pool is not None:
            pool.close()
        raise
    if settings.turns > 1:
        from kernelgen_lm.repair_turns import PolicyResponder

        reward.respond = PolicyResponder(trainer.model, tokenizer, settings.max_completion_length,
                                         settings.temperature, settings.top_p)
    return trainer, reward, resume


def run_grpo(settings: GRPOSettings, log: Any = None) -> TrainResult:
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    trainer, reward, resume = build_grpo_trainer(settings, log)
    started = time.monotonic()
    try:
        output = trainer.train(resume_from_checkpoint=resume)
    finally:
        if reward.pool is not None:
            reward.pool.close()
    trainer.save_model(str(settings.output_dir))
    metrics = dict(output.metrics)
    metrics["wall_seconds"] = round(time.monotonic() - started, 1)
    rewards = [h["reward"] for h in trainer.state.log_history if "reward" in h]
    metrics["reward_first"] = rewards[0] if rewards else None
    metrics["reward_last"] = rewards[-1] if rewards else None
    metrics["evaluations"] = reward.evaluations
    metrics["no_outcome"] = reward.verdicts.get("no_outcome", 0)
    metrics["evals_per_second"] = round(reward.evaluations / reward.seconds, 3) if reward.seconds else None
    metrics["verdicts"] = dict(sorted(reward.verdicts.items()))
    if settings.turns > 1:
        metrics["final_turns"] = {str(t): n for t, n in sorted(reward.final_turns.items())}
    result = TrainResult(Path(settings.output_dir), metrics, list(trainer.state.log_history), [], resume)  # type: ignore[arg-type]
    if trainer.is_world_process_zero():
        write_record(settings.output_dir, "grpo", settings, result, {"tasks": sorted(reward.specs)})  # type: ignore[arg-type]
    log(f"kernelgen-lm grpo: done: {reward.evaluations} evaluations, mean reward first {metrics['reward_first']} "
        f"-> last {metrics['reward_last']}")
    return result

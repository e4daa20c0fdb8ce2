"""The closed online loop on CPU with a tiny Qwen3 model, measured: SFT warm start, GRPO, before/after.

    python benchmarks/grpo_loop.py --out /tmp/grpo-loop [--cases benchmark_cases] [--grpo-steps N]

Builds a tiny Qwen3 model with a locally trained tokenizer, fine-tunes it briefly on three level-1
tasks' expert solutions (so that its samples at the sampling temperature sometimes pass and sometimes
not), measures mean execution reward and ER (pass@1 over several samples at that temperature), runs
``kernelgen-lm grpo`` for N steps with the benchmark pipeline's shaped reward, and measures again.
Progress goes to stderr; the last line of stdout is one JSON object with ``reward_before``,
``reward_after``, ``er_before``, ``er_after``, ``evals_per_second``, ``seconds_per_step``, ``seconds``
(and per-stage times, the targets met). Targets: ``reward_after`` > ``reward_before``, ``er_after`` >=
``er_before``, under 20 minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kernelgen_lm.closed_loop import DEFAULT_TASKS
from kernelgen_lm.grpo_loop import GRPOLoopSettings, run_grpo_loop

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    defaults = GRPOLoopSettings(cases=(), out=Path())
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="working folder (models, run directories, data)")
    parser.add_argument("--cases", type=Path, action="append", default=None,
                        help=f"case roots (default: {REPO / 'benchmark_cases'})")
    parser.add_argument("--task", action="append", default=None, help=f"case id (default: {', '.join(DEFAULT_TASKS)})")
    parser.add_argument("--sft-steps", type=int, default=defaults.sft_steps)
    parser.add_argument("--grpo-steps", type=int, default=defaults.grpo_steps)
    parser.add_argument("--grpo-lr", type=float, default=defaults.grpo_learning_rate)
    parser.add_argument("--grpo-optim", default=defaults.grpo_optimizer, help="transformers optimizer name")
    parser.add_argument("--mask-truncated", action="store_true",
                        help="trl's mask_truncated_completions (completions cut at --max-tokens get no loss)")
    parser.add_argument("--negative-advantage-scale", type=float, default=defaults.negative_advantage_scale,
                        help="weight of below-average completions' advantages (1: plain GRPO, 0: positive only)")
    parser.add_argument("--beta", type=float, default=defaults.beta, help="KL coefficient to the SFT policy")
    parser.add_argument("--num-generations", type=int, default=defaults.num_generations)
    parser.add_argument("--samples", type=int, default=defaults.samples, help="measurement samples per task")
    parser.add_argument("--temperature", type=float, default=defaults.temperature)
    parser.add_argument("--max-tokens", type=int, default=defaults.max_tokens)
    parser.add_argument("--jobs", type=int, default=defaults.jobs, help="evaluation worker processes")
    parser.add_argument("--threads", type=int, default=defaults.threads, help="torch CPU threads")
    ns = parser.parse_args(argv)
    settings = GRPOLoopSettings(cases=tuple(ns.cases or [REPO / "benchmark_cases"]), out=ns.out,
                                tasks=tuple(ns.task or DEFAULT_TASKS), sft_steps=ns.sft_steps,
                                grpo_steps=ns.grpo_steps, grpo_learning_rate=ns.grpo_lr,
                                grpo_optimizer=ns.grpo_optim, mask_truncated=ns.mask_truncated,
                                negative_advantage_scale=ns.negative_advantage_scale, beta=ns.beta,
                                num_generations=ns.num_generations, samples=ns.samples, temperature=ns.temperature,
                                max_tokens=ns.max_tokens, jobs=ns.jobs, threads=ns.threads)
    figures = run_grpo_loop(settings)
    keys = ("reward_before", "reward_after", "er_before", "er_after", "cr_before", "cr_after", "evals_per_second",
            "seconds_per_step", "evaluations", "grpo_reward_first", "grpo_reward_last", "statuses_before",
            "statuses_after", "seconds")
    line = {k: figures.get(k) for k in keys}
    line["stage_seconds"] = figures["stage_seconds"]
    before, after = figures["reward_before"], figures["reward_after"]
    line["targets_met"] = {
        "reward_after>reward_before": before is not None and after is not None and after > before,
        "er_after>=er_before": figures["er_after"] >= figures["er_before"],
        "under_20_minutes": figures["seconds"] < 1200}
    print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""KernelGen-LM's training path on a GPU at a real model size, measured: SFT (LoRA and full) and GRPO.

    python benchmarks/gpu_train_check.py --out /tmp/gpu-check [--hidden 1024 --layers 28] [--device cuda]

No weights can be downloaded, so the model is a Qwen3 built from a config (random initialisation,
a tokenizer trained locally on the tasks' prompts and solutions) at the size given (default: Qwen3-0.6B's
hidden size and depth). What it checks is the machinery, not learning: ``kernelgen-lm sft`` with the
``lora`` and ``full`` presets and ``kernelgen-lm grpo`` with the ``lora`` preset run on the device in
its precision (bf16 where the GPU has it), with gradient checkpointing as the presets set it, and GRPO's
completions are scored by the benchmark's own pipeline (``jobs`` worker processes). Printed per stage:
wall seconds, seconds per optimizer step, peak device memory, the first and last loss (SFT), the
evaluations, their verdicts and evaluations per second (GRPO). Progress goes to stderr; the last line
of stdout is one JSON object. With ``--device cpu`` and small sizes it runs anywhere (a smoke test).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from kernelgen_lm.closed_loop import DEFAULT_TASKS

REPO = Path(__file__).resolve().parents[1]


def _peak_memory_gib(device: str) -> float | None:
    import torch

    if device != "cuda" or not torch.cuda.is_available():
        return None
    return round(torch.cuda.max_memory_allocated() / 2**30, 2)


def _reset_peak(device: str) -> None:
    import torch

    if device == "cuda" and torch.cuda.is_available():
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()


def _sft_stage(preset: str, model: Path, data: Path, ns: argparse.Namespace, log: Any) -> dict[str, Any]:
    from kernelgen_lm.config import SFTSettings, load_settings
    from kernelgen_lm.sft import run_sft

    _reset_peak(ns.device)
    settings = load_settings(SFTSettings, data={
        "model": str(model), "dataset": [str(data)], "output_dir": str(ns.out / f"sft-{preset}"), "preset": preset,
        "device": ns.device, "max_steps": ns.sft_steps, "per_device_batch_size": ns.batch,
        "global_batch_size": ns.batch, "max_length": ns.max_length, "packing": False, "logging_steps": 1,
        "save_steps": ns.sft_steps, "save_total_limit": 1, "report_to": ["none"]})
    started = time.monotonic()
    result = run_sft(settings, log=log)
    seconds = time.monotonic() - started
    losses = [h["loss"] for h in result.log_history if "loss" in h]
    return {"seconds": round(seconds, 1), "seconds_per_step": round(seconds / ns.sft_steps, 2),
            "loss_first": losses[0] if losses else None, "loss_last": losses[-1] if losses else None,
            "peak_device_gib": _peak_memory_gib(ns.device)}


def _grpo_stage(model: Path, ns: argparse.Namespace, log: Any) -> dict[str, Any]:
    from kernelgen_lm.config import GRPOSettings, load_settings
    from kernelgen_lm.grpo import run_grpo

    _reset_peak(ns.device)
    batch = ns.generations * len(ns.task)
    settings = load_settings(GRPOSettings, data={
        "model": str(model), "cases": [str(c) for c in ns.cases], "tasks": list(ns.task), "include_eval_tasks": True,
        "output_dir": str(ns.out / "grpo-lora"), "preset": "lora", "device": ns.device, "max_steps": ns.grpo_steps,
        "num_generations": ns.generations, "per_device_batch_size": batch, "global_batch_size": batch,
        "max_completion_length": ns.max_tokens, "jobs": ns.jobs, "logging_steps": 1, "save_steps": ns.grpo_steps,
        "save_total_limit": 1, "report_to": ["none"], "turns": ns.turns})
    started = time.monotonic()
    metrics = run_grpo(settings, log=log).metrics
    seconds = time.monotonic() - started
    return {"seconds": round(seconds, 1), "seconds_per_step": round(seconds / ns.grpo_steps, 1),
            "evaluations": metrics.get("evaluations"), "evals_per_second": metrics.get("evals_per_second"),
            "verdicts": metrics.get("verdicts"), "no_outcome": metrics.get("no_outcome"),
            "reward_first": metrics.get("reward_first"), "reward_last": metrics.get("reward_last"),
            "turns": ns.turns, "final_turns": metrics.get("final_turns"),
            "peak_device_gib": _peak_memory_gib(ns.device)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="working folder (model, datasets, outputs)")
    parser.add_argument("--cases", type=Path, action="append", default=None,
                        help=f"case roots (default: {REPO / 'benchmark_cases'})")
    parser.add_argument("--task", action="append", default=None, help=f"case id (default: {', '.join(DEFAULT_TASKS)})")
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--hidden", type=int, default=1024, help="hidden size (Qwen3-0.6B: 1024)")
    parser.add_argument("--layers", type=int, default=28, help="decoder layers (Qwen3-0.6B: 28)")
    parser.add_argument("--heads", type=int, default=16, help="attention heads (head dimension 32)")
    parser.add_argument("--vocab", type=int, default=8192, help="tokenizer vocabulary trained locally")
    parser.add_argument("--sft-steps", type=int, default=20)
    parser.add_argument("--grpo-steps", type=int, default=2)
    parser.add_argument("--batch", type=int, default=4, help="SFT sequences per step")
    parser.add_argument("--max-length", type=int, default=4096, help="SFT tokens per sequence")
    parser.add_argument("--generations", type=int, default=8, help="GRPO completions per prompt")
    parser.add_argument("--max-tokens", type=int, default=512, help="GRPO new tokens per completion")
    parser.add_argument("--jobs", type=int, default=8, help="evaluation worker processes")
    parser.add_argument("--turns", type=int, default=1, help="GRPO rollouts with multi-turn repair: a failing "
                        "completion gets its feedback and the policy answers again, up to N turns")
    parser.add_argument("--skip", action="append", default=[], choices=("sft-lora", "sft-full", "grpo"),
                        help="leave a stage out (repeatable)")
    ns = parser.parse_args(argv)
    ns.cases = ns.cases or [REPO / "benchmark_cases"]
    ns.task = tuple(ns.task or DEFAULT_TASKS)

    import torch

    from kernelgen_lm.sft_data import expert_rows, write_expert_dataset
    from kernelgen_lm.tasks import select_tasks
    from kernelgen_lm.tiny_model import build_tiny_model

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if ns.device == "cuda" and not torch.cuda.is_available():
        print("gpu_train_check: --device cuda but torch sees no GPU", file=sys.stderr)
        return 2
    started = time.monotonic()
    ns.out.mkdir(parents=True, exist_ok=True)
    specs = select_tasks(ns.cases, ns.task)
    texts = [m["content"] for row in expert_rows(specs) for m in row["messages"]]
    model = build_tiny_model(ns.out / "model", vocab_size=ns.vocab, extra_text=texts, hidden_size=ns.hidden,
                             num_hidden_layers=ns.layers, num_attention_heads=ns.heads,
                             intermediate_size=3 * ns.hidden, word_boundaries=False, max_token_chars=32)
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(model)
    data, _ = write_expert_dataset(ns.cases, ns.out / "sft-data", ns.task)
    figures: dict[str, Any] = {
        "device": torch.cuda.get_device_name(0) if ns.device == "cuda" else "cpu",
        "torch": torch.__version__, "model": {"hidden_size": config.hidden_size, "layers": config.num_hidden_layers,
                                              "vocab_size": config.vocab_size}}
    from transformers import AutoModelForCausalLM

    figures["model"]["parameters_m"] = round(
        sum(p.numel() for p in AutoModelForCausalLM.from_pretrained(model).parameters()) / 1e6, 1)
    log(f"gpu check: model {figures['model']}")
    stages = [("sft-lora", lambda: _sft_stage("lora", model, data, ns, log)),
              ("sft-full", lambda: _sft_stage("full", model, data, ns, log)),
              ("grpo", lambda: _grpo_stage(ns.out / "sft-full" if "sft-full" not in ns.skip else model, ns, log))]
    for name, stage in stages:
        if name in ns.skip:
            continue
        try:
            figures[name] = stage()
        except Exception as exc:   # noqa: BLE001 - a stage's failure is reported, the others still run
            figures[name] = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        log(f"gpu check: {name}: {figures[name]}")
    figures["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(figures), flush=True)
    return 1 if any("error" in v for v in figures.values() if isinstance(v, dict)) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Settings -> keyword arguments of trl's ``SFTConfig`` / ``DPOConfig``: device and precision,
batch size by gradient accumulation, warm-up, reporting, checkpoints and resume, the LoRA adapter.

The same code serves one CPU process and an ``accelerate launch`` over many GPUs and nodes: the
global batch is ``per_device_batch_size x gradient_accumulation_steps x WORLD_SIZE`` (the variable
accelerate sets), DeepSpeed ZeRO-3 and FSDP come from the accelerate config file, not from here.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from pathlib import Path
from typing import Any

from kernelgen_lm.config import ConfigError, DPOSettings, GRPOSettings, LoraSettings, SFTSettings

TrainSettings = SFTSettings | DPOSettings | GRPOSettings


def world_size() -> int:
    return max(1, int(os.environ.get("WORLD_SIZE", "1") or 1))


def device_of(settings: TrainSettings) -> str:
    if settings.device != "auto":
        if settings.device == "cuda":
            import torch

            if not torch.cuda.is_available():
                raise ConfigError("device: cuda requested but torch sees no GPU (set device: cpu or auto)")
        return settings.device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def accumulation_steps(settings: TrainSettings, log: Any = None) -> int:
    micro = settings.per_device_batch_size or 1
    total = settings.global_batch_size or micro
    steps = max(1, math.ceil(total / (micro * world_size())))
    reached = steps * micro * world_size()
    if reached != total and log is not None:
        log(f"global batch {total} is not a multiple of {micro} x {world_size()} device(s): using {reached}")
    return steps


def checkpoint_to_resume(settings: TrainSettings) -> str | None:
    """``resume``: "" -> None; "last" -> the newest ``checkpoint-N`` in output_dir (None when there is
    none yet: a first run); a path -> that checkpoint (it must exist)."""
    if not settings.resume:
        return None
    out = Path(settings.output_dir or ".")
    if settings.resume == "last":
        found = sorted((p for p in out.glob("checkpoint-*") if p.is_dir() and p.name.split("-")[-1].isdigit()),
                       key=lambda p: int(p.name.split("-")[-1]))
        return str(found[-1]) if found else None
    path = Path(settings.resume)
    if not path.is_dir() or not (path / "trainer_state.json").is_file():
        raise ConfigError(f"resume: {path} is not a checkpoint folder (no trainer_state.json); use 'last' or a "
                          f"checkpoint-N folder of output_dir")
    return str(path)


def common_arguments(settings: TrainSettings, config_cls: type, log: Any = None) -> dict[str, Any]:
    """Keyword arguments for ``config_cls`` (SFTConfig, DPOConfig or GRPOConfig) shared by SFT, DPO and GRPO."""
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    device = device_of(settings)
    on_gpu = device == "cuda"
    precision = settings.precision
    if precision == "auto":
        import torch

        precision = "bf16" if on_gpu and torch.cuda.is_bf16_supported() else "fp32"
    if precision in ("bf16", "fp16") and not on_gpu:
        raise ConfigError(f"precision: {precision} training needs a GPU here; use fp32 (or auto) on CPU")
    if device == "cpu" and settings.cpu_threads > 0:
        import torch

        torch.set_num_threads(settings.cpu_threads)
    checkpointing = settings.gradient_checkpointing
    if checkpointing is None:
        checkpointing = on_gpu
    args: dict[str, Any] = {
        "output_dir": str(settings.output_dir),
        "learning_rate": settings.learning_rate,
        "lr_scheduler_type": settings.lr_scheduler_type,
        "warmup_steps": settings.warmup_ratio,          # transformers 5: a value below 1 is a ratio
        "per_device_train_batch_size": settings.per_device_batch_size,
        "gradient_accumulation_steps": accumulation_steps(settings, log),
        "weight_decay": settings.weight_decay,
        "max_grad_norm": settings.max_grad_norm,
        "max_length": getattr(settings, "max_length", None),
        "save_strategy": "steps",
        "save_steps": settings.save_steps,
        "save_total_limit": settings.save_total_limit or None,
        "logging_steps": settings.logging_steps,
        "report_to": list(settings.report_to) if settings.report_to else ["none"],
        "seed": settings.seed,
        "use_cpu": device == "cpu",
        "bf16": precision == "bf16",
        "fp16": precision == "fp16",
    }
    known = {f.name for f in dataclasses.fields(config_cls)}
    if "max_length" not in known:          # GRPOConfig: lengths are max_completion_length
        del args["max_length"]
    # transformers 5 renamed gradient checkpointing to activation checkpointing (the old name warns)
    renamed = "activation_checkpointing" in known
    args["activation_checkpointing" if renamed else "gradient_checkpointing"] = checkpointing
    if settings.warmup_ratio is not None and settings.warmup_ratio >= 1:
        raise ConfigError("warmup_ratio: expected a share of the steps below 1")
    extras = dict(settings.trainer)
    unknown = sorted(set(extras) - known)
    if unknown:
        raise ConfigError(f"trainer.{unknown[0]}: not an argument of trl's {config_cls.__name__} "
                          f"(see its documentation for the names)")
    args.update(extras)
    return args


def lora_config(lora: LoraSettings) -> Any:
    from peft import LoraConfig

    targets: Any = list(lora.target_modules)
    if targets == ["all-linear"]:
        targets = "all-linear"
    return LoraConfig(r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout, target_modules=targets,
                      task_type="CAUSAL_LM")


def load_tokenizer(model: str, chat_template: Path | None = None) -> Any:
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(model)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"model: cannot load a tokenizer from {model!r}: {str(exc).splitlines()[0]}") from None
    if chat_template is not None:
        tokenizer.chat_template = Path(chat_template).read_text(encoding="utf-8")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def check_model(model: str) -> None:
    """A local model path must be a Hugging Face model folder; anything else is a hub name."""
    path = Path(model).expanduser()
    looks_local = model.startswith((".", "/", "~")) or path.exists()
    if looks_local and not (path / "config.json").is_file() and not (path / "adapter_config.json").is_file():
        raise ConfigError(f"model: {model} is not a Hugging Face model folder (no config.json)")

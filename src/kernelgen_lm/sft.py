"""``kernelgen-lm sft``: supervised fine-tuning with trl's ``SFTTrainer`` on chat data.

Data: ``messages`` datasets (``ascend_cot`` output, the expert solutions of benchmark tasks under
the benchmark prompt, error-derived rounds, or any chat dataset). The assistant turns hold
``<think>reasoning</think>`` and the answer; with ``assistant_only_loss`` (default) only they are
learned, which needs ``{% generation %}`` markers in the chat template: a template without them is
a clear error, and ``chat_template`` can point at one that has them. ``full`` or ``lora`` presets
(the paper's hyper-parameters), packing, checkpoints every ``save_steps``, ``resume: last`` to
continue, ``report_to`` for trackers, the benchmark evaluation callback with ``eval.every_steps``.

The output folder holds the final model (or adapter) with its tokenizer, ``checkpoint-N`` folders,
and ``kernelgen_lm.json`` (resolved settings, metrics, the evaluation history).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelgen_lm.config import ConfigError, SFTSettings, plain

GENERATION_MARKER = "{% generation %}"


@dataclass
class TrainResult:
    output_dir: Path
    metrics: dict[str, Any]
    log_history: list[dict[str, Any]] = field(default_factory=list)
    benchmark_history: list[dict[str, Any]] = field(default_factory=list)
    resumed_from: str | None = None


def check_template(tokenizer: Any, model: str) -> None:
    template = tokenizer.chat_template
    if not template:
        raise ConfigError(f"model: {model} has no chat template; set chat_template to a Jinja file "
                          "(examples/kernelgen_lm/chatml_think.jinja has one with {% generation %} markers)")
    if isinstance(template, dict):
        template = template.get("default", "")
    if GENERATION_MARKER not in template.replace("{%- generation %}", GENERATION_MARKER):
        raise ConfigError(f"assistant_only_loss: the chat template of {model} has no {{% generation %}} markers, so "
                          "the assistant tokens cannot be found; set chat_template to a template with them (e.g. "
                          "examples/kernelgen_lm/chatml_think.jinja) or assistant_only_loss: false")


def write_record(output_dir: Path, kind: str, settings: Any, result: TrainResult, extra: dict[str, Any]) -> None:
    record = {"kind": kind, "settings": plain(settings), "metrics": result.metrics,
              "benchmark_history": result.benchmark_history, "resumed_from": result.resumed_from, **extra}
    (Path(output_dir) / "kernelgen_lm.json").write_text(json.dumps(record, indent=2, default=str) + "\n",
                                                        encoding="utf-8")


def build_sft_trainer(settings: SFTSettings, log: Any = None) -> tuple[Any, Any, str | None]:
    """The ``SFTTrainer`` of ``settings`` (data loaded, tokenized and masked, callback attached), its
    evaluation callback (or None) and the checkpoint it would resume from; nothing is trained."""
    from trl import SFTConfig, SFTTrainer

    from kernelgen_lm.datasets_io import load_messages
    from kernelgen_lm.trainer_arguments import (
        check_model,
        checkpoint_to_resume,
        common_arguments,
        device_of,
        load_tokenizer,
        lora_config,
    )

    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    check_model(settings.model)
    dataset = load_messages(settings.dataset)
    tokenizer = load_tokenizer(settings.model, settings.chat_template)
    if settings.assistant_only_loss:
        check_template(tokenizer, settings.model)
    args = common_arguments(settings, SFTConfig, log)
    args.update(num_train_epochs=settings.epochs, max_steps=settings.max_steps, packing=settings.packing,
                assistant_only_loss=settings.assistant_only_loss)
    if args["bf16"] or args["fp16"]:
        import torch

        args.setdefault("model_init_kwargs", {"dtype": torch.bfloat16 if args["bf16"] else torch.float16})
    resume = checkpoint_to_resume(settings)
    lora = settings.preset == "lora"
    log(f"kernelgen-lm sft: {settings.model} on {len(dataset)} conversations, preset {settings.preset}, "
        f"lr {settings.learning_rate:g}, device {device_of(settings)}, global batch "
        f"{args['per_device_train_batch_size'] * args['gradient_accumulation_steps']} per process"
        + (f", resuming from {resume}" if resume else ""))
    trainer = SFTTrainer(model=settings.model, args=SFTConfig(**args), train_dataset=dataset,
                         processing_class=tokenizer, peft_config=lora_config(settings.lora) if lora else None)
    callback = None
    if settings.eval.every_steps > 0 or (settings.eval.cases and settings.eval.at_end):
        from kernelgen_lm.eval_callback import BenchmarkEvalCallback

        callback = BenchmarkEvalCallback(settings.eval, settings.model, settings.output_dir, lora=lora, log=log)
        trainer.add_callback(callback.attach(trainer))
    return trainer, callback, resume


def run_sft(settings: SFTSettings, log: Any = None) -> TrainResult:
    trainer, callback, resume = build_sft_trainer(settings, log)
    started = time.monotonic()
    output = trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(str(settings.output_dir))
    metrics = dict(output.metrics)
    metrics["wall_seconds"] = round(time.monotonic() - started, 1)
    result = TrainResult(Path(settings.output_dir), metrics, list(trainer.state.log_history),
                         callback.history if callback else [], resume)
    if trainer.is_world_process_zero():
        write_record(settings.output_dir, "sft", settings, result, {})
    return result

"""``kernelgen-lm dpo``: direct preference optimisation with trl's ``DPOTrainer`` on execution-derived
pairs (``kernelgen-lm sample``), with the paper's defaults (beta 0.1, lr 1e-6, cosine, warm-up 0.1,
global batch 64, 150 steps), full or LoRA.

The reference model is the starting policy (a frozen copy; with LoRA, the base with the adapter
disabled) unless ``ref_model`` names another. After training, the policy is scored on the pairs it
learned from: ``reward_accuracy`` is the share of pairs whose implicit reward (beta x log-ratio to
the reference) ranks chosen above rejected, from trl's own evaluation loop.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from kernelgen_lm.config import DPOSettings
from kernelgen_lm.sft import TrainResult, write_record


def run_dpo(settings: DPOSettings, log: Any = None) -> TrainResult:
    from trl import DPOConfig, DPOTrainer

    from kernelgen_lm.datasets_io import load_pairs
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
    if settings.ref_model:
        check_model(settings.ref_model)
    pairs = load_pairs(settings.pairs)
    tokenizer = load_tokenizer(settings.model)
    args = common_arguments(settings, DPOConfig, log)
    args.update(beta=settings.beta, max_steps=settings.max_steps, per_device_eval_batch_size=args[
        "per_device_train_batch_size"])
    if args["bf16"] or args["fp16"]:
        import torch

        dtype = torch.bfloat16 if args["bf16"] else torch.float16
        args.setdefault("model_init_kwargs", {"dtype": dtype})
        if settings.ref_model:
            args.setdefault("ref_model_init_kwargs", {"dtype": dtype})
    resume = checkpoint_to_resume(settings)
    lora = settings.preset == "lora"
    log(f"kernelgen-lm dpo: {settings.model} on {len(pairs)} pairs, preset {settings.preset}, beta {settings.beta:g}, "
        f"lr {settings.learning_rate:g}, {settings.max_steps} steps, device {device_of(settings)}"
        + (f", resuming from {resume}" if resume else ""))
    trainer = DPOTrainer(model=settings.model, ref_model=settings.ref_model or None, args=DPOConfig(**args),
                         train_dataset=pairs, eval_dataset=pairs, processing_class=tokenizer,
                         peft_config=lora_config(settings.lora) if lora else None)
    callback = None
    if settings.eval.every_steps > 0 or (settings.eval.cases and settings.eval.at_end):
        from kernelgen_lm.eval_callback import BenchmarkEvalCallback

        callback = BenchmarkEvalCallback(settings.eval, settings.model, settings.output_dir, lora=lora, log=log)
        trainer.add_callback(callback.attach(trainer))
    started = time.monotonic()
    output = trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(str(settings.output_dir))
    metrics = dict(output.metrics)
    metrics["wall_seconds"] = round(time.monotonic() - started, 1)
    scored = trainer.evaluate()
    metrics["reward_accuracy"] = scored.get("eval_rewards/accuracies")
    metrics["reward_margin"] = scored.get("eval_rewards/margins")
    trained = [h["rewards/accuracies"] for h in trainer.state.log_history if "rewards/accuracies" in h]
    metrics["train_reward_accuracy_last"] = trained[-1] if trained else None
    result = TrainResult(Path(settings.output_dir), metrics, list(trainer.state.log_history),
                         callback.history if callback else [], resume)
    if trainer.is_world_process_zero():
        write_record(settings.output_dir, "dpo", settings, result, {"pairs": len(pairs)})
    log(f"kernelgen-lm dpo: reward accuracy on the pairs {metrics['reward_accuracy']}")
    return result

"""A ``transformers`` callback that measures the model on benchmark tasks while it trains.

Every ``eval.every_steps`` optimizer steps (and after the last one, with ``eval.at_end``) the
current weights are saved with the trainer's own ``save_model`` (so DeepSpeed ZeRO-3 and FSDP
gather them), loaded by the benchmark's generator registry (vLLM when installed, else
transformers; a LoRA run saves the adapter and it is applied to the base model), and the tasks go
through the benchmark's pipeline. CR and ER are logged like the loss (``eval/cr``, ``eval/er``,
so every ``report_to`` integration shows them) and appended to
``OUTPUT_DIR/benchmark-eval/history.jsonl``; each step's run directory stays there
(``npukb report`` reads it). Only the main process generates and evaluates; the others wait.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from kernelgen_lm.config import EvalSettings


class BenchmarkEvalCallback(TrainerCallback):
    def __init__(self, settings: EvalSettings, base_model: str, output_dir: Path, lora: bool = False,
                 log: Any = None):
        from kernelgen_lm.tasks import select_tasks

        self.settings = settings
        self.base_model = base_model
        self.lora = lora
        self.folder = Path(output_dir) / "benchmark-eval"
        self.specs = select_tasks(settings.cases, settings.tasks)
        self.trainer: Any = None
        self.history: list[dict[str, Any]] = []
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self._last_step = -1

    def attach(self, trainer: Any) -> BenchmarkEvalCallback:
        self.trainer = trainer
        return self

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        every = self.settings.every_steps
        if every > 0 and state.global_step % every == 0:
            self.measure(state.global_step)

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if self.settings.at_end and self._last_step != state.global_step:
            self.measure(state.global_step)

    def measure(self, step: int) -> dict[str, Any] | None:
        from kernelgen_lm.rollouts import RolloutSettings, roll_out

        if self.trainer is None:
            raise RuntimeError("BenchmarkEvalCallback.attach(trainer) was not called")
        self._last_step = step
        where = self.folder / f"step-{step}"
        weights = where / "model"
        self.trainer.save_model(str(weights))           # a collective call under ZeRO-3 / FSDP
        if not self.trainer.is_world_process_zero():
            return None
        started = time.monotonic()
        prefix = f"{self.settings.backend}:" if self.settings.backend else ""
        model, lora = (self.base_model, str(weights)) if self.lora else (str(weights), None)
        settings = RolloutSettings(model=f"{prefix}{model}", samples=self.settings.samples,
                                   temperature=self.settings.temperature, max_tokens=self.settings.max_tokens,
                                   lora=lora, toolchain=self.settings.toolchain, shapes=self.settings.shapes,
                                   seeds=self.settings.seeds)
        from kernelgen_lm.sampling import EngineRunOptions

        rollout = roll_out(self.specs, settings, where / "run", log=lambda line: None,
                           run_options=EngineRunOptions(engine=dict(self.settings.engine)))
        rates = rollout.rates(self.settings.samples)
        record = {"step": step, **rates, "tasks": len(self.specs), "graded": len(rollout.results),
                  "no_outcome": len(rollout.no_outcome), "seconds": round(time.monotonic() - started, 1)}
        self.history.append(record)
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / "history.jsonl").open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
        shutil.rmtree(weights, ignore_errors=True)      # the run directory stays; the weights are in checkpoints
        self.log(f"kernelgen-lm: step {step}: benchmark CR {rates['cr']:.3f} ER {rates['er']:.3f} "
                 f"on {len(self.specs)} task(s) ({record['seconds']:.0f} s)")
        self.trainer.log({"eval/cr": rates["cr"], "eval/er": rates["er"]})
        return record

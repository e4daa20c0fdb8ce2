"""``kernelgen-lm``: the training half of the loop.

    kernelgen-lm sft CONFIG.yaml [--key value ...]       supervised fine-tuning (full or LoRA)
    kernelgen-lm sample CONFIG.yaml [--key value ...]    candidates -> benchmark pipeline -> preference pairs
    kernelgen-lm dpo CONFIG.yaml [--key value ...]       DPO on those pairs
    kernelgen-lm grpo CONFIG.yaml [--key value ...]      GRPO with the benchmark's execution reward
    kernelgen-lm expert-data CASES... --out DIR          SFT data: benchmark prompts answered by expert solutions
    kernelgen-lm errors RUN_DIR --teacher SPEC --cases DIR --out DIR   an error-derived SFT round

Settings: defaults < preset < YAML < command line (see ``kernelgen_lm.config``). Every user error
(unknown key, missing file, a dataset without ``messages``, an unreachable server) ends with one
line ``kernelgen-lm CMD: error: ...`` and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

USAGE_ERRORS: tuple[type[BaseException], ...] = (ValueError, OSError, RuntimeError)


def _train_command(kind: str, argv: Sequence[str]) -> int:
    from kernelgen_lm.config import DPOSettings, GRPOSettings, SampleSettings, SFTSettings, load_settings

    cls = {"sft": SFTSettings, "dpo": DPOSettings, "sample": SampleSettings, "grpo": GRPOSettings}[kind]
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: kernelgen-lm {kind} CONFIG.yaml [--key value ...]\n\nKeys: the fields of "
              f"kernelgen_lm.config.{cls.__name__} (dotted for nested ones: --lora.r 8, --eval.every_steps 50); "
              "values are read as YAML.")
        return 0 if argv else 2
    settings = load_settings(cls, argv[0], argv[1:])
    if kind == "sft":
        from kernelgen_lm.sft import run_sft

        result = run_sft(settings)
        print(json.dumps({"output_dir": str(result.output_dir), **result.metrics}, default=str))
    elif kind == "dpo":
        from kernelgen_lm.dpo import run_dpo

        result = run_dpo(settings)
        print(json.dumps({"output_dir": str(result.output_dir), **result.metrics}, default=str))
    elif kind == "grpo":
        from kernelgen_lm.grpo import run_grpo

        result = run_grpo(settings)
        print(json.dumps({"output_dir": str(result.output_dir), **result.metrics}, default=str))
    else:
        from kernelgen_lm.sampling import run_sample

        outcome = run_sample(settings)
        print(json.dumps({"pairs_dir": str(outcome.pairs_dir), "pairs": outcome.pairs,
                          "classes": outcome.stats["classes"], "cr": outcome.stats["cr"],
                          "er": outcome.stats["er"]}))
    return 0


def _expert_data(argv: Sequence[str]) -> int:
    from kernelgen_lm.sft_data import write_expert_dataset

    parser = argparse.ArgumentParser(prog="kernelgen-lm expert-data",
                                     description="An SFT dataset: each task's benchmark prompt answered by its "
                                                 "expert solution.")
    parser.add_argument("cases", nargs="+", type=Path, help="case roots or case folders")
    parser.add_argument("--out", type=Path, required=True, help="dataset folder to write (plus OUT.jsonl)")
    parser.add_argument("--tasks", action="append", default=[], help="case-id glob (repeatable)")
    parser.add_argument("--project-level", action="store_true", help="the project-level prompt")
    ns = parser.parse_args(argv)
    folder, count = write_expert_dataset(ns.cases, ns.out, ns.tasks, ns.project_level)
    print(json.dumps({"dataset": str(folder), "conversations": count}))
    return 0


def _errors(argv: Sequence[str]) -> int:
    from kernelgen_lm.sft_data import error_round

    parser = argparse.ArgumentParser(prog="kernelgen-lm errors",
                                     description="An error-derived SFT round: the failures of a run directory go "
                                                 "through ascend_cot's error stage (a teacher diagnoses and fixes; "
                                                 "only fixes that pass are kept).")
    parser.add_argument("run_dir", type=Path, help="an npukb run directory (e.g. OUT/run of kernelgen-lm sample)")
    parser.add_argument("--teacher", required=True, help="teacher model spec (http(s)://HOST:PORT/v1#NAME, "
                                                         "replay:FILE.jsonl or a local model directory)")
    parser.add_argument("--cases", type=Path, action="append", required=True, help="case roots the run's task ids "
                                                                                   "resolve against (repeatable)")
    parser.add_argument("--docs", type=Path, action="append", default=[], help="documentation folder retrieved "
                                                                              "for build errors (repeatable)")
    parser.add_argument("--out", type=Path, required=True, help="output folder (OUT/dataset is the SFT data)")
    ns = parser.parse_args(argv)
    if not ns.run_dir.is_dir():
        raise ValueError(f"{ns.run_dir}: no such run directory")
    folder, count = error_round(ns.run_dir, ns.teacher, ns.out, ns.cases, ns.docs)
    print(json.dumps({"dataset": str(folder), "conversations": count}))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    commands = ("sft", "sample", "dpo", "grpo", "expert-data", "errors")
    if not args or args[0] in ("-h", "--help") or args[0] not in commands:
        print(__doc__.strip())
        return 0 if args and args[0] in ("-h", "--help") else 2
    command, rest = args[0], args[1:]
    from ascend_cot.teacher import TeacherError
    from kernelgen_lm.config import ConfigError
    from kernelgen_lm.datasets_io import DataError

    try:
        if command in ("sft", "sample", "dpo", "grpo"):
            return _train_command(command, rest)
        if command == "expert-data":
            return _expert_data(rest)
        return _errors(rest)
    except (ConfigError, DataError, TeacherError, *USAGE_ERRORS) as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"kernelgen-lm {command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

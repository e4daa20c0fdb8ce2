"""The README's KernelGen-LM CPU sequence, run as written and timed.

    python benchmarks/cpu_sequence.py [--keep]

Runs the README's commands one after another as subprocesses from the repository root (the same
command lines, :data:`COMMANDS`): expert data for three level-1 tasks, a tiny model whose tokenizer is
trained on it, SFT, an evaluation of the SFT model, sampling into preference pairs, DPO, an evaluation
of the DPO model. Each command's progress goes to stderr as it runs; after each step one line gives its
wall time and figures (CR/ER, pairs, DPO reward accuracy). The last stdout line is one JSON object:
``steps`` (name, seconds, exit status, figures), ``seconds`` and ``ok``. The step outputs under ``runs/``
are removed first (a fresh sequence) unless ``--keep``. A failing step stops the sequence (exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TASKS = ("level1/math/add_custom", "level1/tensorcreation/fill", "level1/math/strideslice_neg_concat_v2")
CASE_FOLDERS = " ".join(f"benchmark_cases/{t}" for t in TASKS)
EVALUATE = (f"npukb evaluate {CASE_FOLDERS} --temperature 0 --max-tokens 1000 --cpu-threads 1 --shapes static")

# (name, command line): the README's KernelGen-LM CPU section, in order
COMMANDS: tuple[tuple[str, str], ...] = (
    ("expert_data", "kernelgen-lm expert-data benchmark_cases " + " ".join(f"--tasks {t}" for t in TASKS)
     + " --out runs/expert-data"),
    ("tiny_model", "python -m kernelgen_lm.tiny_model runs/tiny --text runs/expert-data.jsonl --vocab-size 4096 "
                   "--hidden-size 128 --max-token-chars 16"),
    ("sft", "kernelgen-lm sft examples/kernelgen_lm/cpu/sft.yaml"),
    ("evaluate_sft", f"{EVALUATE} --model runs/sft --npukb-out runs/eval-sft"),
    ("sample", "kernelgen-lm sample examples/kernelgen_lm/cpu/sample.yaml"),
    ("dpo", "kernelgen-lm dpo examples/kernelgen_lm/cpu/dpo.yaml"),
    ("evaluate_dpo", f"{EVALUATE} --model runs/dpo --npukb-out runs/eval-dpo"),
)
OUTPUTS = ("runs/expert-data", "runs/expert-data.jsonl", "runs/tiny", "runs/sft", "runs/eval-sft", "runs/pairs",
           "runs/dpo", "runs/eval-dpo")


def last_json_line(text: str) -> dict[str, Any]:
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                return value
    return {}


def figures_of(name: str, stdout: str, root: Path) -> dict[str, Any]:
    """The figures a step produced: from its JSON line or the files it wrote."""
    line = last_json_line(stdout)
    if name == "expert_data":
        return {"conversations": line.get("conversations")}
    if name == "sft":
        history = root / "runs/sft/benchmark-eval/history.jsonl"
        last = last_json_line(history.read_text(encoding="utf-8")) if history.is_file() else {}
        return {"train_loss": line.get("train_loss"), "eval_cr": last.get("cr"), "eval_er": last.get("er")}
    if name.startswith("evaluate_"):
        summary = root / f"runs/eval-{name.removeprefix('evaluate_')}/summary.json"
        if not summary.is_file():
            return {}
        mean = json.loads(summary.read_text(encoding="utf-8"))["levels"]["mean"] or {}
        return {"cr": mean.get("cr", {}).get("pass@1"), "er": mean.get("er", {}).get("pass@1"),
                "tasks": mean.get("tasks")}
    if name == "sample":
        return {"pairs": line.get("pairs"), "classes": line.get("classes")}
    if name == "dpo":
        return {"reward_accuracy": line.get("reward_accuracy"), "reward_margin": line.get("reward_margin")}
    return {}


def run_step(name: str, command: str, root: Path, env: dict[str, str]) -> dict[str, Any]:
    print(f"cpu sequence: {name}: $ {command}", file=sys.stderr, flush=True)
    started = time.monotonic()
    argv = shlex.split(command)
    if argv[0] == "python":
        argv[0] = sys.executable
    done = subprocess.run(argv, cwd=root, env=env, stdout=subprocess.PIPE, text=True, check=False)
    seconds = round(time.monotonic() - started, 1)
    sys.stderr.write(done.stdout)
    figures = figures_of(name, done.stdout, root) if done.returncode == 0 else {}
    print(f"cpu sequence: {name}: {seconds:.0f} s, exit {done.returncode}, {json.dumps(figures)}",
          file=sys.stderr, flush=True)
    return {"name": name, "command": command, "seconds": seconds, "returncode": done.returncode, **figures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep earlier outputs under runs/ (default: remove them)")
    ns = parser.parse_args(argv)
    if not ns.keep:
        for relative in OUTPUTS:
            path = REPO / relative
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    started = time.monotonic()
    steps = []
    for name, command in COMMANDS:
        steps.append(run_step(name, command, REPO, env))
        if steps[-1]["returncode"] != 0:
            break
    ok = len(steps) == len(COMMANDS) and all(s["returncode"] == 0 for s in steps)
    print(json.dumps({"steps": steps, "seconds": round(time.monotonic() - started, 1), "ok": ok,
                      "load_average": [round(x, 1) for x in os.getloadavg()]}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

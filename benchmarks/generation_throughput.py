"""Generation throughput of the transformers backend (HFGenerator) on the tiny Qwen3 model.

    PYTHONPATH=src python benchmarks/generation_throughput.py [--samples 4] [--max-tokens 128] [--repeats 3]

Builds the tiny model in a temporary directory (offline), generates ``--samples`` completions of
the add_custom prompt per repeat in one batched call, and prints tokens/s (generated tokens over
wall time, prefill included) and the prompt length. The model is random: the figure measures the
pipeline (chat template, batched sampling, decoding), not a real model's speed.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import torch

    from kernelgen_lm.tiny_model import build_tiny_model
    from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams
    from npukernelbench.generators.hf import HFGenerator
    from npukernelbench.prompt import build_messages
    from npukernelbench.spec import load_spec

    task = load_spec(REPO / "benchmark_cases/level1/math/add_custom", REPO / "benchmark_cases")
    messages = build_messages(task)
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = build_tiny_model(Path(tmp) / "tiny")
        gen = HFGenerator(str(model_dir), GeneratorOptions(progress=False))
        gen.load()
        prompt_tokens = int(gen.encode(messages).shape[1])
        gen.generate([GenerationRequest(task, messages, SamplingParams(n=1, max_tokens=4))])  # warm-up
        rates, tokens = [], []
        for seed in range(args.repeats):
            req = GenerationRequest(task, messages, SamplingParams(n=args.samples, max_tokens=args.max_tokens,
                                                                   seed=seed))
            started = time.perf_counter()
            (batch,) = gen.generate([req])
            seconds = time.perf_counter() - started
            count = sum(c.tokens or 0 for c in batch)
            tokens.append(count)
            rates.append(count / seconds)
    print(f"backend: transformers (HFGenerator), device {gen._device}, torch {torch.__version__}, "
          f"threads {torch.get_num_threads()}")
    print(f"model: tiny Qwen3 (hidden 64, 2 layers), prompt {prompt_tokens} tokens (add_custom)")
    print(f"batch: {args.samples} samples x max {args.max_tokens} new tokens, {args.repeats} repeats, "
          f"tokens generated per repeat {tokens}")
    print(f"generation throughput: median {statistics.median(rates):.1f} tokens/s "
          f"(min {min(rates):.1f}, max {max(rates):.1f})")


if __name__ == "__main__":
    main()

"""The dataset card (``OUT/README.md``), written from the build's stats and config."""

from __future__ import annotations

from typing import Any

from ascend_cot.config import BuildConfig
from ascend_cot.sample import SOURCES

DESCRIPTIONS = {
    "docs": "questions generated from AscendC documentation chunks, answered with reasoning (BM25-retrieved "
            "passages as background)",
    "kernel": "the request a kernel/host source file answers, with the reasoning that leads to the file; and "
              "design-choice questions about the file",
    "project": "project-level generation prompts (one static shape and dtype each) answered with reasoning, a "
               "tiling summary checked against the simulator's run of the real tiling function, and the project",
    "general": "open reasoning corpora, normalised and filtered by language, length and perplexity",
    "api_debug": "build errors (clustered by diagnostic signature) diagnosed and fixed; fixes verified to build and "
                 "pass",
    "kernel_debug": "built-but-wrong kernels reconstructed into correct ones; reconstructions verified to pass",
}


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def dataset_card(config: BuildConfig, stats: dict[str, Any]) -> str:
    sources = [s for s in SOURCES if stats["generated_by_source"].get(s) or stats["drops_by_source"].get(s)]
    rows = [[s, stats["kept_by_source"].get(s, 0), stats["generated_by_source"].get(s, 0),
             ", ".join(f"{k} {v}" for k, v in sorted(stats["kept_verification"].get(s, {}).items())) or "-",
             config.mix.get(s, 1.0), DESCRIPTIONS[s]] for s in sources]
    drops = [[k, v] for k, v in sorted(stats["drops"].items(), key=lambda kv: -kv[1])]
    dec = stats.get("decontamination") or {}
    tokens = stats.get("tokens") or {}
    token_rows = [[k, v.get("count", 0), v.get("min", "-"), v.get("p50", "-"), v.get("p95", "-"), v.get("max", "-")]
                  for k, v in tokens.items() if isinstance(v, dict)]
    teacher = (stats.get("runtime") or {}).get("teacher") or config.teacher.model or "(none)"
    parts = [
        "# Ascend-CoT corpus",
        "",
        "Chain-of-thought training data for writing AscendC kernels, built by `ascend-cot build` "
        f"(config hash `{stats['config_hash']}`). {stats['total']} samples.",
        "",
        "## Format",
        "",
        "`datasets.load_from_disk(\"dataset\")` or `data.jsonl` (one sample per line). Columns: `messages` (chat "
        "turns; the assistant turn is `<think>reasoning</think>` followed by the answer), `source`, `origin` (the "
        "document chunk, project file, case scenario or failing sample it came from), `task` (benchmark case id or "
        "empty), `verified` (`passed`: the answer's op project built and passed its case; `built`: it builds, no case "
        "to run; `failed`; `not_applicable`: no complete op project in the answer), `provenance` (teacher, prompt "
        "hash, config hash). `drops.jsonl` lists every candidate that was not kept, with the reason and the "
        "teacher's raw answer.",
        "",
        "## Composition",
        "",
        _table(["source", "kept", "generated", "verification (kept)", "mix weight", "what it is"], rows),
        "",
        f"Teacher: `{teacher}`. Code-bearing answers were executed with the `{config.verify.toolchain}` toolchain "
        f"({config.verify.shapes} shapes); speeds are not part of this corpus.",
        "",
        "## What was dropped",
        "",
        _table(["reason", "count"], drops) if drops else "Nothing.",
        "",
        "## Decontamination",
        "",
        (f"Token {config.decontamination.ngram}-gram overlap with {dec.get('held_out_cases', 0)} held-out benchmark "
         f"cases ({dec.get('benchmark_documents', 0)} distinct files: solutions, templates, API descriptions); a "
         f"sample was dropped at {config.decontamination.max_overlap:.0%} overlap or "
         f"{config.decontamination.max_run} consecutive matched n-grams (a verbatim copy): {dec.get('dropped', 0)} of "
         f"{dec.get('checked', 0)}. "
         f"Cases not held out: {', '.join(config.decontamination.exclude_cases) or 'none'}."
         if dec.get("enabled") else "Not run (no benchmark given): do not evaluate on tasks this corpus may contain."),
        "",
        "## Lengths",
        "",
        f"Unit: {tokens.get('unit', '?')}.",
        "",
        _table(["source", "count", "min", "median", "p95", "max"], token_rows) if token_rows else "",
        "",
        "## Limitations",
        "",
        "Verification runs kernels on a CPU simulator (ascendc-sim), not on an NPU: `passed` means the project builds "
        "against the simulator's AscendC headers and matches the PyTorch reference on the checked shapes. Teacher "
        "reasoning is checked only where it makes a checkable claim (project-level tiling summaries) or leads to code "
        "that is executed (kernel, project and debug samples); documentation answers are not executed.",
        "",
    ]
    return "\n".join(parts)

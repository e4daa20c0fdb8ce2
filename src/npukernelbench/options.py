"""Option groups shared by the pytest plugin and the ``npukb`` CLI (one table, two front ends)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from npukernelbench.data_seed import fresh_data_seed
from npukernelbench.sharding import Shard

if TYPE_CHECKING:
    from npukernelbench.evaluate import EvalOptions
    from npukernelbench.generators.base import EngineOptions, GeneratorOptions, SamplingParams


@dataclass(frozen=True)
class Opt:
    """One option. ``flag`` is its ``--npukb-*`` name, always registered; ``short`` (``--model``) is
    registered too unless another pytest plugin already owns that name."""

    flag: str
    dest: str
    help: str
    type: Any = str
    default: Any = None
    action: str | None = None
    choices: tuple[str, ...] | None = None
    short: str | None = None
    metavar: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return (self.short, self.flag) if self.short else (self.flag,)


OPTIONS: tuple[Opt, ...] = (
    Opt("--npukb-model", "npukb_model", "model spec: reference (default), mutants, replay:PATH.jsonl, "
        "http(s)://HOST:PORT/v1[#MODEL], or a local model directory", default="reference", short="--model",
        metavar="SPEC"),
    Opt("--npukb-samples", "npukb_samples", "samples per task (pass@k uses k <= samples); default 1, or with "
        "replay:PATH.jsonl the most samples the file holds for one task", type=int, default=None,
        short="--samples", metavar="N"),
    Opt("--npukb-toolchain", "npukb_toolchain", "toolchain that builds and runs kernels (ascendc-sim, or module:Class)",
        default="ascendc-sim", short="--toolchain", metavar="NAME"),
    Opt("--npukb-shapes", "npukb_shapes", "which shapes each sample is checked on", default="both",
        choices=("static", "dynamic", "both"), short="--shapes"),
    Opt("--npukb-shape-examples", "npukb_shape_examples", "hypothesis-drawn dynamic shapes per sample", type=int,
        default=10, short="--shape-examples", metavar="N"),
    Opt("--npukb-shape-seed", "npukb_shape_seed", "seed of the dynamic-shape search (printed to replay a failure)",
        type=int, default=0, short="--shape-seed", metavar="N"),
    Opt("--npukb-data-seed", "npukb_data_seed", "seed every case's input data derives from (default: drawn fresh "
        "per run, printed in the run header and stored in run.json; give it to replay a run's data)", type=int,
        default=None, short="--data-seed", metavar="N"),
    Opt("--npukb-cases", "npukb_cases", "extra case root or case folder (repeatable; either layout)",
        action="append", default=None, metavar="PATH"),
    Opt("--npukb-out", "npukb_out", "run directory (completions.jsonl, results.jsonl, summary.json, report.md)",
        default="npukb-out", metavar="DIR"),
    Opt("--npukb-resume", "npukb_resume", "keep finished samples in the run directory and skip them",
        action="store_true", default=False),
    Opt("--npukb-shard", "npukb_shard", "run only shard K of N (K/N, 1 <= K <= N; tasks split by a stable hash "
        "of their id); merge the shards' run directories with 'npukb report --out DIR SHARD_DIR...'",
        default=None, metavar="K/N"),
    Opt("--npukb-html", "npukb_html", "also write a self-contained HTML report, RUN_DIR/report.html (needs the "
        "'report' extra: matplotlib)", action="store_true", default=False),
    Opt("--npukb-temperature", "npukb_temperature", "sampling temperature", type=float, default=0.8,
        short="--temperature", metavar="T"),
    Opt("--npukb-top-p", "npukb_top_p", "nucleus sampling top-p", type=float, default=0.95, short="--top-p",
        metavar="P"),
    Opt("--npukb-max-tokens", "npukb_max_tokens", "maximum new tokens per completion", type=int, default=8192,
        short="--max-tokens", metavar="N"),
    Opt("--npukb-seed", "npukb_seed", "sampling seed (also the mutants' seed)", type=int, default=0, short="--seed",
        metavar="N"),
    Opt("--npukb-lora", "npukb_lora", "LoRA adapter directory applied to a local model", default=None, short="--lora",
        metavar="DIR"),
    Opt("--npukb-model-dtype", "npukb_model_dtype",
        "weights dtype of a local model (transformers, vLLM): auto, float32, "
        "bfloat16, float16", default="auto", choices=("auto", "float32", "bfloat16", "float16"), short="--model-dtype"),
    Opt("--npukb-gpu-memory-utilization", "npukb_gpu_memory_utilization", "vLLM: fraction of GPU memory the engine "
        "reserves (on the CPU backend: of host memory; default vLLM's on GPU, unused on CPU)", type=float,
        default=None, short="--gpu-memory-utilization", metavar="F"),
    Opt("--npukb-max-model-len", "npukb_max_model_len", "vLLM: context length, prompt + completion (default: the "
        "model's)", type=int, default=None, short="--max-model-len", metavar="N"),
    Opt("--npukb-tensor-parallel-size", "npukb_tensor_parallel_size", "vLLM: devices the model is split over", type=int,
        default=1, short="--tensor-parallel-size", metavar="N"),
    Opt("--npukb-kv-cache-gib", "npukb_kv_cache_gib", "vLLM: explicit KV-cache size in GiB (default 1 on CPU unless "
        "--gpu-memory-utilization is given; on GPU vLLM sizes it)", type=float, default=None, short="--kv-cache-gib",
        metavar="GIB"),
    Opt("--npukb-project-level", "npukb_project_level", "project-level prompt: add the static cases and the hardware "
        "description (SoC, core counts, UB size)", action="store_true", default=False, short="--project-level"),
)


def _keywords(o: Opt) -> dict[str, Any]:
    """argparse keywords of one option (pytest's addoption takes the same)."""
    kw: dict[str, Any] = {"dest": o.dest, "help": o.help, "default": o.default}
    if o.metavar and o.action != "store_true":
        kw["metavar"] = o.metavar
    if o.action:
        kw["action"] = o.action
    else:
        kw["type"] = o.type
        if o.choices:
            kw["choices"] = o.choices
    return kw


def add_pytest_options(group: Any) -> None:
    """Every option under its ``--npukb-*`` name, and under its short name where no other plugin
    registered that name first (pytest refuses a name twice)."""
    taken = _registered_names(group)
    for o in OPTIONS:
        names = o.names if o.short not in taken else (o.flag,)
        try:
            group.addoption(*names, **_keywords(o))
        except ValueError:
            if o.short is None:
                raise
            group.addoption(o.flag, **_keywords(o))


def _registered_names(group: Any) -> set[str]:
    """Option names other plugins registered before this one (pytest checks conflicts only inside a
    group; argparse would fail on them later, when the command line is parsed)."""
    parser = getattr(group, "parser", None)
    groups = [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]
    return {name for g in groups if g is not None for opt in getattr(g, "options", []) for name in opt.names()}


def add_argparse_options(parser: argparse.ArgumentParser, skip: tuple[str, ...] = ()) -> None:
    for o in OPTIONS:
        if o.flag not in skip and o.short not in skip:
            parser.add_argument(*o.names, **_keywords(o))


def options_markdown() -> str:
    """The options table of the docs (README.md and docs/plugin.md carry it; a test keeps them equal:
    regenerate with ``python -m npukernelbench.options``)."""
    rows = ["| option | default | meaning |", "|---|---|---|"]
    for o in OPTIONS:
        value = "" if o.action == "store_true" else "=" + ("\\|".join(o.choices) if o.choices else o.metavar or "X")
        name = f"`{o.names[0]}{value}`" + (f" (`{o.flag}`)" if o.short else "")
        default = "off" if o.action == "store_true" else "-" if o.default is None else f"`{o.default}`"
        rows.append(f"| {name} | {default} | {o.help.replace('|', chr(92) + '|')} |")
    return "\n".join(rows) + "\n"


@dataclass(frozen=True)
class RunOptions:
    model: str = "reference"
    samples: int = 1
    toolchain: str = "ascendc-sim"
    shapes: str = "both"
    shape_examples: int = 10
    shape_seed: int = 0
    data_seed: int | None = None          # None: drawn fresh when the run begins (see with_data_seed)
    cases: tuple[str, ...] = ()
    out: Path = Path("npukb-out")
    resume: bool = False
    html: bool = False
    temperature: float = 0.8
    top_p: float = 0.95
    max_tokens: int = 8192
    seed: int = 0
    lora: str | None = None
    project_level: bool = False
    model_dtype: str = "auto"
    shard: Shard | None = None
    engine: EngineOptions = field(default_factory=lambda: _engine_options())

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"--samples must be >= 1, got {self.samples}")
        if self.shape_examples < 0:
            raise ValueError(f"--shape-examples must be >= 0, got {self.shape_examples}")

    @classmethod
    def from_namespace(cls, ns: Any) -> RunOptions:
        get = (lambda name: ns.getoption(name)) if hasattr(ns, "getoption") else (lambda name: getattr(ns, name))
        samples = get("npukb_samples")
        if samples is None:
            samples = default_samples(get("npukb_model"))
        return cls(model=get("npukb_model"), samples=samples, toolchain=get("npukb_toolchain"),
                   shapes=get("npukb_shapes"), shape_examples=get("npukb_shape_examples"),
                   shape_seed=get("npukb_shape_seed"), data_seed=get("npukb_data_seed"),
                   cases=tuple(get("npukb_cases") or ()),
                   out=Path(get("npukb_out")), resume=bool(get("npukb_resume")), html=bool(get("npukb_html")),
                   temperature=get("npukb_temperature"), top_p=get("npukb_top_p"),
                   max_tokens=get("npukb_max_tokens"), seed=get("npukb_seed"), lora=get("npukb_lora"),
                   project_level=bool(get("npukb_project_level")), model_dtype=get("npukb_model_dtype"),
                   shard=Shard.parse(get("npukb_shard")) if get("npukb_shard") else None,
                   engine=_engine_options(gpu_memory_utilization=get("npukb_gpu_memory_utilization"),
                                          max_model_len=get("npukb_max_model_len"),
                                          tensor_parallel_size=get("npukb_tensor_parallel_size"),
                                          kv_cache_gib=get("npukb_kv_cache_gib")))

    def sampling(self) -> SamplingParams:
        from npukernelbench.generators.base import SamplingParams

        return SamplingParams(n=self.samples, temperature=self.temperature, top_p=self.top_p,
                              max_tokens=self.max_tokens, seed=self.seed)

    def generator_options(self) -> GeneratorOptions:
        from npukernelbench.generators.base import GeneratorOptions

        return GeneratorOptions(lora=self.lora, seed=self.seed, dtype=self.model_dtype, engine=self.engine)

    def eval_options(self) -> EvalOptions:
        from npukernelbench.evaluate import EvalOptions

        return EvalOptions(shapes=self.shapes, shape_examples=self.shape_examples, shape_seed=self.shape_seed,
                           scratch_dir=self.out / "scratch", data_seed=self.data_seed)

    def with_data_seed(self, seed: int | None = None) -> RunOptions:
        """These options with a data seed: ``seed`` when one is given, else the one the options hold,
        else a fresh one (every process of one run must use the same: the controller picks it)."""
        chosen = seed if seed is not None else self.data_seed
        return replace(self, data_seed=chosen if chosen is not None else fresh_data_seed())


def default_samples(model: str) -> int:
    """Samples per task when ``--samples`` is not given: what a replay file holds per task (the most
    for any one task), else 1. An unreadable replay file gives 1 here; the run reports it as a usage error."""
    if not model.strip().startswith("replay:"):
        return 1
    from npukernelbench.generators.replay import ReplayError, replay_sample_counts

    try:
        counts = replay_sample_counts(Path(model.strip()[len("replay:"):]).expanduser())
    except ReplayError:
        return 1
    return max(counts.values(), default=1)


def _engine_options(**fields: Any) -> EngineOptions:
    """EngineOptions from option values (generators.base is imported only when options are built)."""
    from npukernelbench.generators.base import EngineOptions

    return EngineOptions(**fields)


def load_toolchain(name: str):
    """A registered toolchain name, an installed plug-in's name, or ``module:Class``."""
    from npukernelbench.toolchains import get_toolchain

    return get_toolchain(name)


if __name__ == "__main__":
    print(options_markdown(), end="")

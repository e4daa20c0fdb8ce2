"""The run's options, declared once: each is a :class:`RunOptions` field whose metadata (an
:class:`Opt`) drives the pytest plugin's options, the ``npukb`` CLI flags and the docs' options table.

A field ``name`` is the option ``--npukb-name`` (dest ``npukb_name``); its ``short`` name
(``--model``) is registered too unless another pytest plugin already owns it. Adding an option is
adding one field here (and whatever reads it)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from npukernelbench.data_seed import fresh_data_seed
from npukernelbench.sharding import Shard
from npukernelbench.soc_profiles import PROFILES, soc_profile

if TYPE_CHECKING:
    from npukernelbench.evaluate import EvalOptions
    from npukernelbench.generators.base import EngineOptions, GeneratorOptions, SamplingParams
    from npukernelbench.prompt import PromptOptions

_UNSET: Any = object()


@dataclass(frozen=True)
class Opt:
    """One option as the front ends see it. ``default`` is what the command line gives when the option
    is absent; ``read`` turns the parsed value into the field's value (None: taken as it is)."""

    flag: str
    help: str
    type: Any = str
    default: Any = None
    action: str | None = None
    choices: tuple[str, ...] | None = None
    short: str | None = None
    metavar: str | None = None
    read: Callable[[Any], Any] | None = None

    @property
    def dest(self) -> str:
        return "npukb_" + self.flag[len("--npukb-"):].replace("-", "_")

    @property
    def names(self) -> tuple[str, ...]:
        return (self.short, self.flag) if self.short else (self.flag,)


def option(help: str, default: Any, *, cli_default: Any = _UNSET, **opt: Any) -> Any:
    """A :class:`RunOptions` field that is an option: ``default`` is the field's default (and the
    command line's, unless ``cli_default`` differs); ``opt`` are :class:`Opt`'s other fields."""
    spec = {"help": help, "default": default if cli_default is _UNSET else cli_default, **opt}
    if isinstance(default, list | dict | set):
        raise TypeError("mutable option defaults are not allowed")
    return field(default=default, metadata={"npukb": spec})


def _opt_of(f: Field) -> Opt | None:
    spec = f.metadata.get("npukb")
    return None if spec is None else Opt(flag="--npukb-" + f.name.replace("_", "-"), **spec)


def _as_tuple(value: Any) -> tuple[str, ...]:
    return tuple(value or ())


def _as_bool(value: Any) -> bool:
    return bool(value)


def _as_shard(value: Any) -> Shard | None:
    return Shard.parse(value) if value else None


def _as_on_off(value: Any) -> bool:
    return value in (True, "on")


def _as_turns(value: Any) -> int:
    """``--npukb-turns``: a whole number >= 1 (read here, not by argparse: a bad value is one line, exit 2)."""
    text = str(value).strip()
    if not text.lstrip("-").isdigit() or int(text) < 1:
        raise ValueError(f"--npukb-turns must be a whole number >= 1, got {value!r}")
    return int(text)


@dataclass(frozen=True)
class RunOptions:
    model: str = option("model spec: reference (default), mutants, replay:PATH.jsonl, http(s)://HOST:PORT/v1[#MODEL], "
                        "or a local model directory", "reference", short="--model", metavar="SPEC")
    samples: int = option("samples per task (pass@k uses k <= samples); default 1, or with replay:PATH.jsonl the most "
                          "samples the file holds for one task", 1, cli_default=None, type=int, short="--samples",
                          metavar="N")
    toolchain: str = option("toolchain that builds and runs kernels (ascendc-sim, or module:Class)", "ascendc-sim",
                            short="--toolchain", metavar="NAME")
    shapes: str = option("which shapes each sample is checked on", "both", choices=("static", "dynamic", "both"),
                         short="--shapes")
    shape_examples: int = option("hypothesis-drawn dynamic shapes per sample", 10, type=int, short="--shape-examples",
                                 metavar="N")
    shape_seed: int = option("seed of the dynamic-shape search (printed to replay a failure)", 0, type=int,
                             short="--shape-seed", metavar="N")
    data_seed: int | None = option("seed every case's input data derives from (default: drawn fresh per run, printed "
                                   "in the run header and stored in run.json; give it to replay a run's data)", None,
                                   type=int, short="--data-seed", metavar="N")
    cases: tuple[str, ...] = option("extra case root or case folder (repeatable; either layout)", (), cli_default=None,
                                    action="append", metavar="PATH", read=_as_tuple)
    out: Path = option("run directory (completions.jsonl, results.jsonl, summary.json, report.md)", Path("npukb-out"),
                       cli_default="npukb-out", metavar="DIR", read=Path)
    case_score: bool = option("after a static case fails, still check the others to count upstream's case pass rate "
                              "(summary.json's upstream_score); off: stop at the first failure (faster; the verdict is "
                              "the same)", True, cli_default="on", choices=("on", "off"), read=_as_on_off)
    run_timeout: float = option("seconds of wall-clock and CPU time one simulated kernel run may take (the tiling "
                                "function, the launch and its checks); a run past it is a timeout verdict", 60.0,
                                type=float, metavar="S")
    input_budget: int = option("MultiKernelBench tasks: halve the reference's top-level integer sizes until its inputs "
                               "and parameters hold at most N elements (0: the full sizes)", 1 << 20, type=int,
                               metavar="N")
    resume: bool = option("keep finished samples in the run directory and skip them", False, action="store_true",
                          read=_as_bool)
    shard: Shard | None = option("run only shard K of N (K/N, 1 <= K <= N; tasks split by a stable hash of their id); "
                                 "merge the shards' run directories with 'npukb report --out DIR SHARD_DIR...'", None,
                                 metavar="K/N", read=_as_shard)
    html: bool = option("also write a self-contained HTML report, RUN_DIR/report.html (needs the 'report' extra: "
                        "matplotlib)", False, action="store_true", read=_as_bool)
    temperature: float = option("sampling temperature (default 0.8; upstream's 0.7 in the kernel-only and full modes)",
                                0.8, cli_default=None, type=float, short="--temperature", metavar="T")
    top_p: float = option("nucleus sampling top-p", 0.95, type=float, short="--top-p", metavar="P")
    max_tokens: int = option("maximum new tokens per completion (default 8192; upstream's 16384 in the kernel-only and "
                             "full modes)", 8192, cli_default=None, type=int, short="--max-tokens", metavar="N")
    seed: int = option("sampling seed (also the mutants' seed)", 0, type=int, short="--seed", metavar="N")
    lora: str | None = option("LoRA adapter directory applied to a local model", None, short="--lora", metavar="DIR")
    model_dtype: str = option("weights dtype of a local model (transformers, vLLM): auto, float32, bfloat16, float16",
                              "auto", choices=("auto", "float32", "bfloat16", "float16"), short="--model-dtype")
    cpu_threads: int = option("torch threads of a local model generating on CPU (transformers; 0: torch's default, "
                              "one per core; on a busy machine 1 is several times faster)", 0, type=int,
                              short="--cpu-threads", metavar="N")
    gpu_memory_utilization: float | None = option(
        "vLLM: fraction of GPU memory the engine reserves (on the CPU backend: of host memory; default vLLM's on GPU, "
        "unused on CPU)", None, type=float, short="--gpu-memory-utilization", metavar="F")
    max_model_len: int | None = option("vLLM: context length, prompt + completion (default: the model's)", None,
                                       type=int, short="--max-model-len", metavar="N")
    tensor_parallel_size: int = option("vLLM: devices the model is split over", 1, type=int,
                                       short="--tensor-parallel-size", metavar="N")
    kv_cache_gib: float | None = option("vLLM: explicit KV-cache size in GiB (default 1 on CPU unless "
                                        "--gpu-memory-utilization is given; on GPU vLLM sizes it)", None, type=float,
                                        short="--kv-cache-gib", metavar="GIB")
    project_level: bool = option("project-level prompt: add the static cases and the hardware description (SoC, core "
                                 "counts, UB size)", False, action="store_true", short="--project-level",
                                 read=_as_bool)
    turns: int = option("multi-turn repair: a sample that fails gets its own feedback (build diagnostics, runtime or "
                        "mismatch report; bounded and scrubbed) and answers again in the same conversation, up to N "
                        "turns; a passing turn ends it (1: one turn, no feedback; pytest: the items are turn 1, the "
                        "later turns run at the end of the session)", 1, cli_default="1", metavar="N", read=_as_turns)
    mode: str = option("generation mode: project (the whole op project), or upstream NPUKernelBench's kernel-only or "
                       "full (one prompt per CSV row, upstream's prompt, answer format and sampling defaults)",
                       "project", choices=("project", "kernel-only", "full"))
    soc: str | None = option("SoC profile the simulator models (core counts, SoC version; docs/simulator.md, \"SoC "
                             "profiles\"); default: Ascend910_9392 (the SoC upstream's prompt names) in the "
                             "kernel-only and full modes, else the task layout's (Ascend910B3)", None,
                             choices=tuple(PROFILES), metavar="NAME")

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"--samples must be >= 1, got {self.samples}")
        if not isinstance(self.turns, int) or isinstance(self.turns, bool) or self.turns < 1:
            raise ValueError(f"--npukb-turns must be a whole number >= 1, got {self.turns!r}")
        if self.cpu_threads < 0:
            raise ValueError(f"--cpu-threads must be >= 0, got {self.cpu_threads}")
        if not self.run_timeout > 0:
            raise ValueError(f"--npukb-run-timeout must be a number of seconds > 0, got {self.run_timeout}")
        if self.shape_examples < 0:
            raise ValueError(f"--shape-examples must be >= 0, got {self.shape_examples}")
        from npukernelbench.modes import check_mode

        check_mode(self.mode)
        if self.soc is not None:
            soc_profile(self.soc)     # UnknownSoc (a ValueError) names the known profiles
        self.engine_options()        # the vLLM settings are checked with the others

    def engine_options(self) -> EngineOptions:
        """The vLLM engine settings (generators.base is imported only when they are asked for)."""
        from npukernelbench.generators.base import EngineOptions

        return EngineOptions(gpu_memory_utilization=self.gpu_memory_utilization, max_model_len=self.max_model_len,
                             tensor_parallel_size=self.tensor_parallel_size, kv_cache_gib=self.kv_cache_gib)

    @classmethod
    def from_namespace(cls, ns: Any) -> RunOptions:
        """The options a parsed command line holds (pytest's config or an argparse namespace)."""
        get = (lambda name: ns.getoption(name)) if hasattr(ns, "getoption") else (lambda name: getattr(ns, name))
        values: dict[str, Any] = {}
        for f in fields(cls):
            o = _opt_of(f)
            if o is not None:
                raw = get(o.dest)
                values[f.name] = o.read(raw) if o.read else raw
        if values.get("samples") is None:
            values["samples"] = default_samples(values["model"])
        values.update({k: v for k, v in sampling_defaults(values.get("mode") or "project").items()
                       if values.get(k) is None})
        return cls(**values)

    def sampling(self) -> SamplingParams:
        from npukernelbench.generators.base import SamplingParams

        return SamplingParams(n=self.samples, temperature=self.temperature, top_p=self.top_p,
                              max_tokens=self.max_tokens, seed=self.seed)

    def generator_options(self) -> GeneratorOptions:
        from npukernelbench.generators.base import GeneratorOptions

        return GeneratorOptions(lora=self.lora, seed=self.seed, dtype=self.model_dtype,
                                cpu_threads=self.cpu_threads, engine=self.engine_options())

    def prompt_options(self) -> PromptOptions:
        """What the prompt says: project-level prompts describe the device of the run's toolchain, as
        SoC profile ``soc`` (None: each task layout's ``default_soc``)."""
        from npukernelbench.prompt import PromptOptions

        return PromptOptions(project_level=self.project_level, soc=self.soc, toolchain=self.toolchain)

    def eval_options(self) -> EvalOptions:
        from npukernelbench.evaluate import EvalOptions

        return EvalOptions(shapes=self.shapes, shape_examples=self.shape_examples, shape_seed=self.shape_seed,
                           scratch_dir=self.out / "scratch", data_seed=self.data_seed,
                           input_budget=self.input_budget, soc=self.soc, case_score=self.case_score,
                           run_timeout_s=self.run_timeout)

    def with_data_seed(self, seed: int | None = None) -> RunOptions:
        """These options with a data seed: ``seed`` when one is given, else the one the options hold,
        else a fresh one (every process of one run must use the same: the controller picks it)."""
        chosen = seed if seed is not None else self.data_seed
        return replace(self, data_seed=chosen if chosen is not None else fresh_data_seed())


OPTIONS: tuple[Opt, ...] = tuple(o for o in map(_opt_of, fields(RunOptions)) if o is not None)


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


def sampling_defaults(mode: str) -> dict[str, Any]:
    """The temperature and token limit a run gets when the command line gives none: upstream's in its
    modes (``modes.py``), this project's otherwise."""
    from npukernelbench import modes

    if mode in modes.UPSTREAM_MODES:
        return {"temperature": modes.UPSTREAM_TEMPERATURE, "max_tokens": modes.UPSTREAM_MAX_TOKENS}
    return {"temperature": modes.PROJECT_TEMPERATURE, "max_tokens": modes.PROJECT_MAX_TOKENS}


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


def load_toolchain(name: str):
    """A registered toolchain name, an installed plug-in's name, or ``module:Class``."""
    from npukernelbench.toolchains import get_toolchain

    return get_toolchain(name)


if __name__ == "__main__":
    print(options_markdown(), end="")

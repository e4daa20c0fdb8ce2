"""The build configuration: frozen dataclasses read from YAML, with overrides (defaults < YAML < ``--set``).

Every unknown key, wrong type or missing path raises :class:`ConfigError` naming the file and the
key (``tiny.yaml: stages.docs.chunk_chars: expected an integer, got 'big'``). Relative paths are
resolved against the config file's folder. ``config_hash`` is a sha256 of the resolved settings.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_cot.sample import SOURCES, Verified


class ConfigError(ValueError):
    """The configuration is invalid; the message names the file, the key and the problem."""


@dataclass(frozen=True)
class TeacherConfig:
    model: str = ""                       # replay:FILE.jsonl, http(s)://HOST:PORT/v1#MODEL, or a local HF dir
    temperature: float = 0.6
    top_p: float = 0.95
    max_tokens: int = 4096
    seed: int = 0
    concurrency: int = 8                  # parallel requests to a server
    timeout: float = 600.0                # seconds per request
    max_retries: int = 5
    backoff: float = 1.0
    cache: bool = True                    # completion cache for live teachers (in OUT/cache/teacher)


@dataclass(frozen=True)
class VerifyConfig:
    toolchain: str = "ascendc-sim"
    shapes: str = "static"                # static | dynamic | both (npukernelbench evaluate)
    shape_examples: int = 4
    seeds: int = 1                        # input seeds per shape
    data_seed: int = 0                    # every verification's input data derive from it (a reproducible corpus)
    run_timeout_s: float = 60.0
    keep: tuple[str, ...] = ("passed", "built", "not_applicable")


@dataclass(frozen=True)
class DocsConfig:
    enabled: bool = True
    paths: tuple[Path, ...] = ()          # folders or files of AscendC documentation
    include: tuple[str, ...] = ("*.md", "*.markdown", "*.html", "*.htm", "*.txt")
    api_reference: tuple[str, ...] = ()   # globs (relative to a docs path) of API reference pages
    chunk_chars: int = 1800
    max_chunks: int = 0                   # 0: every chunk
    questions_per_chunk: int = 3
    retrieve_k: int = 3
    keep: tuple[str, ...] | None = None   # verification outcomes kept (default: verify.keep)


@dataclass(frozen=True)
class KernelConfig:
    enabled: bool = True
    cases: tuple[Path, ...] = ()          # case roots or folders: their expert solutions, exported as op projects
    projects: tuple[Path, ...] = ()       # folders holding op projects (op_host/ + op_kernel/)
    files: tuple[str, ...] = ("op_kernel/*", "op_host/*")   # which project files get a sample
    max_files: int = 0                    # 0: every file
    questions_per_file: int = 2           # design-choice QA per file (0: only the request -> file sample)
    keep: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ProjectConfig:
    enabled: bool = True
    cases: tuple[Path, ...] = ()
    max_scenarios: int = 0                # per case; 0: every static case
    float_rel_tol: float = 1e-6           # float tiling values compare with this relative tolerance
    keep: tuple[str, ...] | None = None


@dataclass(frozen=True)
class GeneralSource:
    path: str = ""                        # .jsonl / .json / .parquet file, a datasets save_to_disk folder, or hf:NAME
    split: str = "train"
    prompt: str = "prompt"                # field names (a "messages" field, when present, is used as is)
    response: str = "response"
    reasoning: str = "reasoning"
    max_samples: int = 0


@dataclass(frozen=True)
class GeneralConfig:
    enabled: bool = True
    sources: tuple[GeneralSource, ...] = ()
    languages: tuple[str, ...] = ("en", "zh")   # ISO 639-1 codes kept (py3langid); empty: any
    min_tokens: int = 8
    max_tokens: int = 8192
    require_reasoning: bool = True
    perplexity_model: Path | None = None  # a small causal LM directory; None: no perplexity filter
    max_perplexity: float = 0.0           # 0: no limit
    keep: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MutantsConfig:
    cases: tuple[Path, ...] = ()
    samples: int = 4
    seed: int = 0


@dataclass(frozen=True)
class ErrorsConfig:
    enabled: bool = True
    runs: tuple[Path, ...] = ()           # npukb run directories (completions.jsonl + results.jsonl)
    cases: tuple[Path, ...] = ()          # where the runs' task ids resolve
    mutants: MutantsConfig = field(default_factory=MutantsConfig)
    api_debug: bool = True
    kernel_debug: bool = True
    per_cluster: int = 1                  # build errors explained per diagnostic signature
    max_clusters: int = 0                 # 0: every cluster
    max_kernel_debug: int = 0             # 0: every built-but-wrong kernel
    docs_k: int = 2                       # documentation chunks retrieved per build error
    keep: tuple[str, ...] | None = ("passed",)


@dataclass(frozen=True)
class StagesConfig:
    docs: DocsConfig = field(default_factory=DocsConfig)
    kernel: KernelConfig = field(default_factory=KernelConfig)
    project: ProjectConfig = field(default_factory=ProjectConfig)
    general: GeneralConfig = field(default_factory=GeneralConfig)
    errors: ErrorsConfig = field(default_factory=ErrorsConfig)


@dataclass(frozen=True)
class DedupConfig:
    exact: bool = True
    near_threshold: float = 0.9           # MinHash Jaccard estimate; 0 disables near-duplicate removal
    num_perm: int = 128
    shingle: int = 5                      # words per shingle


@dataclass(frozen=True)
class DecontaminationConfig:
    enabled: bool = True
    against: tuple[Path, ...] = ()        # case roots: ours and/or a public NPUKernelBench tree
    exclude_cases: tuple[str, ...] = ()   # case-id globs that are not held out (training cases)
    ngram: int = 13                       # tokens per n-gram
    max_overlap: float = 0.2              # share of a sample's n-grams found in the benchmark
    max_run: int = 40                     # or this many consecutive matched n-grams (a verbatim copy)
    common_documents: int = 4             # n-grams in at least this many benchmark files are boilerplate


@dataclass(frozen=True)
class BuildConfig:
    teacher: TeacherConfig = field(default_factory=TeacherConfig)
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    stages: StagesConfig = field(default_factory=StagesConfig)
    dedup: DedupConfig = field(default_factory=DedupConfig)
    decontamination: DecontaminationConfig = field(default_factory=DecontaminationConfig)
    mix: Mapping[str, float] = field(default_factory=lambda: {s: 1.0 for s in SOURCES})
    tokenizer: Path | None = None         # the training tokenizer (length filter and statistics)
    seed: int = 0
    source_file: Path | None = None       # where the config was read from (not hashed)

    def keep_for(self, stage_keep: tuple[str, ...] | None) -> tuple[str, ...]:
        return stage_keep if stage_keep is not None else self.verify.keep

    def to_json(self) -> dict[str, Any]:
        data = _plain(self)
        data.pop("source_file", None)
        return data

    @property
    def config_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()[:16]


# -- reading --------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"[:120]


class _Reader:
    def __init__(self, where: str, base: Path):
        self.where = where
        self.base = base

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.where}: {key}: {problem}")

    def convert(self, hint: Any, value: Any, key: str) -> Any:
        if hint is Any:
            return value
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            if value is None and type(None) in args:
                return None
            inner = [a for a in args if a is not type(None)]
            return self.convert(inner[0], value, key)
        if dataclasses.is_dataclass(hint):
            return self.dataclass(hint, value, key)
        if hint is Path:
            if not isinstance(value, str) or not value:
                raise self.fail(key, f"expected a path (string), got {_describe(value)}")
            path = Path(value).expanduser()
            return path if path.is_absolute() else (self.base / path).resolve()
        if hint is bool:
            if not isinstance(value, bool):
                raise self.fail(key, f"expected true or false, got {_describe(value)}")
            return value
        if hint is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(key, f"expected an integer, got {_describe(value)}")
            return value
        if hint is float:
            if isinstance(value, str):          # YAML 1.1 reads 1e-5 (no dot) as a string
                try:
                    value = float(value)
                except ValueError:
                    pass
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.fail(key, f"expected a number, got {_describe(value)}")
            return float(value)
        if hint is str:
            if not isinstance(value, str):
                raise self.fail(key, f"expected a string, got {_describe(value)}")
            return value
        if origin is tuple:
            if isinstance(value, str | Path) and args[0] is not str:
                value = [value]
            if not isinstance(value, list | tuple):
                raise self.fail(key, f"expected a list, got {_describe(value)}")
            return tuple(self.convert(args[0], v, f"{key}[{i}]") for i, v in enumerate(value))
        if origin in (Mapping, dict):
            if not isinstance(value, Mapping):
                raise self.fail(key, f"expected a mapping, got {_describe(value)}")
            return {str(k): self.convert(args[1], v, f"{key}.{k}") for k, v in value.items()}
        raise self.fail(key, f"unsupported setting type {hint}")

    def dataclass(self, cls: type, value: Any, key: str) -> Any:
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            raise self.fail(key or "<top>", f"expected a mapping of settings, got {_describe(value)}")
        hints = typing.get_type_hints(cls)
        names = {f.name for f in dataclasses.fields(cls) if f.name != "source_file"}
        unknown = sorted(set(value) - names)
        if unknown:
            where = f"{key}.{unknown[0]}" if key else str(unknown[0])
            raise self.fail(where, f"unknown key; allowed: {', '.join(sorted(names))}")
        kwargs = {name: self.convert(hints[name], value[name], f"{key}.{name}" if key else name)
                  for name in value}
        return cls(**kwargs)


def read_dataclass(cls: type, data: Any, where: str, base: Path) -> Any:
    """``cls`` (a frozen dataclass tree) from a mapping, with the same checks as the build config:
    unknown keys, wrong types and relative paths (resolved against ``base``). Raises :class:`ConfigError`
    (``where: key: problem``). Used by other configs of the project (``kernelgen_lm``)."""
    return _Reader(where, base).dataclass(cls, data, "")


def plain(value: Any) -> Any:
    """A dataclass tree as JSON-ready data (paths as strings)."""
    return _plain(value)


def set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``a.b.c`` in nested mappings (created as needed); raises :class:`ConfigError`."""
    _set_path(data, dotted, value)


def _set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    node = data
    for part in parts[:-1]:
        child = node.get(part)
        if child is None:
            child = node[part] = {}
        if not isinstance(child, dict):
            raise ConfigError(f"--set {dotted}: {part} is not a mapping")
        node = child
    node[parts[-1]] = value


def parse_override(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as YAML (``mix.docs=0``, ``stages.general.enabled=false``)."""
    import yaml

    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--set {text!r}: expected KEY=VALUE, e.g. mix.docs=0")
    try:
        return key.strip(), yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise ConfigError(f"--set {text!r}: the value is not valid YAML ({exc})") from None


def from_mapping(data: Mapping[str, Any], base: Path, where: str = "<config>",
                 overrides: Sequence[str] = ()) -> BuildConfig:
    data = json.loads(json.dumps(data, default=str)) if data else {}
    for item in overrides:
        key, value = parse_override(item)
        _set_path(data, key, value)
    config = _Reader(where, base).dataclass(BuildConfig, data, "")
    sources = tuple(src if src.path.startswith("hf:") or not src.path or Path(src.path).is_absolute()
                    else dataclasses.replace(src, path=str((base / src.path).resolve()))
                    for src in config.stages.general.sources)
    general = dataclasses.replace(config.stages.general, sources=sources)
    config = dataclasses.replace(config, stages=dataclasses.replace(config.stages, general=general))
    validate(config, where)
    return config


def load_config(path: Path | str, overrides: Sequence[str] = ()) -> BuildConfig:
    """Read and validate ``path`` (YAML); raises :class:`ConfigError`."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    config = from_mapping(data or {}, path.resolve().parent, path.name, overrides)
    return dataclasses.replace(config, source_file=path.resolve())


def validate(config: BuildConfig, where: str) -> None:
    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {problem}")

    outcomes = {v.value for v in Verified}
    for key, keep in (("verify.keep", config.verify.keep), ("stages.docs.keep", config.stages.docs.keep),
                      ("stages.kernel.keep", config.stages.kernel.keep),
                      ("stages.project.keep", config.stages.project.keep),
                      ("stages.general.keep", config.stages.general.keep),
                      ("stages.errors.keep", config.stages.errors.keep)):
        for item in keep or ():
            if item not in outcomes:
                raise fail(key, f"unknown verification outcome {item!r}; use {', '.join(sorted(outcomes))}")
    if config.verify.shapes not in ("static", "dynamic", "both"):
        raise fail("verify.shapes", f"expected static, dynamic or both, got {config.verify.shapes!r}")
    for source, weight in config.mix.items():
        if source not in SOURCES:
            raise fail(f"mix.{source}", f"unknown source; sources: {', '.join(SOURCES)}")
        if weight < 0:
            raise fail(f"mix.{source}", f"a mixing weight cannot be negative ({weight})")
    if not 0 <= config.dedup.near_threshold <= 1:
        raise fail("dedup.near_threshold", "expected a number in [0, 1]")
    if not 0 < config.decontamination.max_overlap <= 1:
        raise fail("decontamination.max_overlap", "expected a number in (0, 1]")
    stages = config.stages
    needs_teacher = (stages.docs.enabled or stages.kernel.enabled or stages.project.enabled
                     or stages.errors.enabled)
    if needs_teacher and not config.teacher.model:
        raise fail("teacher.model", "required by the docs, kernel, project and errors stages "
                                    "(replay:FILE.jsonl, http://HOST:PORT/v1#MODEL or a local model directory)")
    checks: list[tuple[str, Path | None, bool]] = [("tokenizer", config.tokenizer, True)]
    if stages.docs.enabled:
        if not stages.docs.paths:
            raise fail("stages.docs.paths", "the docs stage needs at least one documentation folder or file")
        checks += [(f"stages.docs.paths[{i}]", p, False) for i, p in enumerate(stages.docs.paths)]
    if stages.kernel.enabled:
        if not stages.kernel.cases and not stages.kernel.projects:
            raise fail("stages.kernel", "the kernel stage needs cases or projects")
        checks += [(f"stages.kernel.cases[{i}]", p, True) for i, p in enumerate(stages.kernel.cases)]
        checks += [(f"stages.kernel.projects[{i}]", p, True) for i, p in enumerate(stages.kernel.projects)]
    if stages.project.enabled:
        if not stages.project.cases:
            raise fail("stages.project.cases", "the project stage needs at least one case folder or root")
        checks += [(f"stages.project.cases[{i}]", p, True) for i, p in enumerate(stages.project.cases)]
    if stages.general.enabled:
        if not stages.general.sources:
            raise fail("stages.general.sources", "the general stage needs at least one source")
        for i, src in enumerate(stages.general.sources):
            if not src.path:
                raise fail(f"stages.general.sources[{i}].path", "missing")
            if not src.path.startswith("hf:") and not Path(src.path).exists():
                raise fail(f"stages.general.sources[{i}].path", f"{src.path} does not exist")
        checks.append(("stages.general.perplexity_model", stages.general.perplexity_model, True))
    if stages.errors.enabled:
        errors = stages.errors
        if not errors.runs and not errors.mutants.cases:
            raise fail("stages.errors", "the errors stage needs runs (npukb run directories) or mutants.cases")
        checks += [(f"stages.errors.runs[{i}]", p, True) for i, p in enumerate(errors.runs)]
        checks += [(f"stages.errors.cases[{i}]", p, True) for i, p in enumerate(errors.cases)]
        checks += [(f"stages.errors.mutants.cases[{i}]", p, True) for i, p in enumerate(errors.mutants.cases)]
        if errors.runs and not errors.cases:
            raise fail("stages.errors.cases", "runs need the case roots their task ids resolve against")
    if config.decontamination.enabled:
        checks += [(f"decontamination.against[{i}]", p, True) for i, p in enumerate(config.decontamination.against)]
    for key, path, must_be_dir in checks:
        if path is None:
            continue
        if not path.exists():
            raise fail(key, f"{path} does not exist")
        if must_be_dir and not path.is_dir():
            raise fail(key, f"{path} is not a folder")

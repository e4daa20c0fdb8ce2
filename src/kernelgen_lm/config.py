"""The settings of ``kernelgen-lm sft``, ``sample``, ``dpo`` and ``grpo``: frozen dataclasses read with the
precedence defaults < preset < YAML file < command line.

``preset`` (``full`` or ``lora``) fills the training hyper-parameters the YAML file and the command
line leave unset with the AscendKernelGen paper's values (Table 6); anything set explicitly wins.
Command-line overrides are ``--key value`` or ``--key=value`` pairs, dotted for nested settings
(``--lora.r 8``, ``--eval.every_steps 50``), values read as YAML (``--report_to '[wandb]'``).
Unknown keys, wrong types and missing files are :class:`ConfigError` naming the file and the key.
Relative paths in a YAML file are relative to that file; on the command line, to the current folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_cot.config import ConfigError, plain, read_dataclass, set_dotted
from kernelgen_lm.pairs import DEFAULT_POLICY, POLICIES, canonical_policy
from kernelgen_lm.rewards import RewardShaping

__all__ = ["ConfigError", "DPOSettings", "EvalSettings", "GRPOSettings", "LoraSettings", "PolicyTrainingSettings",
           "RewardShaping", "SFTSettings", "SampleSettings", "load_settings", "PRESETS", "DPO_PRESETS", "GRPO_PRESETS"]

# The paper's training recipe (AscendKernelGen, Table 6). SFT: lr 1.25e-6 full fine-tuning /
# 1.25e-5 LoRA, cosine decay, warm-up ratio 0.01, micro/global batch 1/128, weight decay 0.1,
# gradient clipping 1.0. DPO: beta 0.1, lr 1e-6, cosine, warm-up 0.1, global batch 64, 150 steps.
PRESETS: dict[str, dict[str, Any]] = {
    "full": {"learning_rate": 1.25e-6, "lr_scheduler_type": "cosine", "warmup_ratio": 0.01,
             "per_device_batch_size": 1, "global_batch_size": 128, "weight_decay": 0.1, "max_grad_norm": 1.0},
    "lora": {"learning_rate": 1.25e-5, "lr_scheduler_type": "cosine", "warmup_ratio": 0.01,
             "per_device_batch_size": 1, "global_batch_size": 128, "weight_decay": 0.1, "max_grad_norm": 1.0},
}
# The paper gives one DPO learning rate (1e-6, full fine-tuning); the LoRA preset scales it by the
# same factor of 10 as the SFT presets (our choice, not the paper's).
DPO_PRESETS: dict[str, dict[str, Any]] = {
    "full": {"learning_rate": 1e-6, "lr_scheduler_type": "cosine", "warmup_ratio": 0.1, "beta": 0.1,
             "per_device_batch_size": 1, "global_batch_size": 64, "max_steps": 150, "weight_decay": 0.0,
             "max_grad_norm": 1.0},
    "lora": {"learning_rate": 1e-5, "lr_scheduler_type": "cosine", "warmup_ratio": 0.1, "beta": 0.1,
             "per_device_batch_size": 1, "global_batch_size": 64, "max_steps": 150, "weight_decay": 0.0,
             "max_grad_norm": 1.0},
}
# GRPO (not in the paper): trl's GRPOConfig learning rate 1e-6 for full fine-tuning, x10 for LoRA as
# above; a constant schedule with a short warm-up, 8 completions per prompt (one group per step).
GRPO_PRESETS: dict[str, dict[str, Any]] = {
    "full": {"learning_rate": 1e-6, "lr_scheduler_type": "constant_with_warmup", "warmup_ratio": 0.05,
             "per_device_batch_size": 8, "global_batch_size": 8, "max_steps": 200, "weight_decay": 0.0,
             "max_grad_norm": 1.0},
    "lora": {"learning_rate": 1e-5, "lr_scheduler_type": "constant_with_warmup", "warmup_ratio": 0.05,
             "per_device_batch_size": 8, "global_batch_size": 8, "max_steps": 200, "weight_decay": 0.0,
             "max_grad_norm": 1.0},
}
PAIR_POLICIES = tuple(POLICIES)     # old spellings (kernelgen_lm.pairs.LEGACY_POLICIES) load as their new names


@dataclass(frozen=True)
class LoraSettings:
    """peft LoRA adapter settings (used by the ``lora`` preset)."""

    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: tuple[str, ...] = ("all-linear",)


@dataclass(frozen=True)
class EvalSettings:
    """The evaluation callback: every ``every_steps`` optimizer steps the current weights are saved,
    loaded by the benchmark's generator registry, and ``tasks`` are run through the benchmark's
    pipeline; CR and ER (pass@1) are logged with the loss (``eval/cr``, ``eval/er``)."""

    every_steps: int = 0                   # 0: no evaluation during training
    cases: tuple[Path, ...] = ()           # case roots or folders (either layout)
    tasks: tuple[str, ...] = ()            # case-id globs within cases; empty: every case found
    samples: int = 1                       # samples per task
    temperature: float = 0.0               # 0: greedy
    max_tokens: int = 4096
    backend: str = ""                      # model spec prefix for the saved weights: "" (hf, or vllm when
                                           # importable), "hf" or "vllm"
    toolchain: str = "ascendc-sim"
    shapes: str = "static"
    seeds: int = 1                         # input seeds per shape (the benchmark default is the case's)
    at_end: bool = True                    # also evaluate after the last step
    engine: Mapping[str, Any] = field(default_factory=dict)   # vLLM engine settings (tensor_parallel_size, ...)


@dataclass(frozen=True)
class SFTSettings:
    model: str = ""                        # local model directory or hub name
    dataset: tuple[Path, ...] = ()         # datasets folders (save_to_disk), .jsonl, .json or .parquet files
    output_dir: Path | None = None
    preset: str = "full"                   # full | lora
    learning_rate: float | None = None     # None: the preset's
    lr_scheduler_type: str | None = None
    warmup_ratio: float | None = None
    per_device_batch_size: int | None = None
    global_batch_size: int | None = None   # reached by gradient accumulation over devices
    weight_decay: float | None = None
    max_grad_norm: float | None = None
    epochs: float = 1.0
    max_steps: int = -1                    # > 0 overrides epochs
    max_length: int = 16384                # tokens per training sequence (longer ones are truncated)
    packing: bool = True
    assistant_only_loss: bool = True       # needs {% generation %} markers in the chat template
    chat_template: Path | None = None      # a Jinja file replacing the tokenizer's chat template
    lora: LoraSettings = field(default_factory=LoraSettings)
    eval: EvalSettings = field(default_factory=EvalSettings)
    save_steps: int = 100
    save_total_limit: int = 3
    logging_steps: int = 1
    report_to: tuple[str, ...] = ("none",)
    resume: str = ""                       # "": fresh; "last": the newest checkpoint in output_dir; or a path
    seed: int = 0
    device: str = "auto"                   # auto | cpu | cuda
    precision: str = "auto"                # auto (bf16 where the GPU has it, else fp32) | bf16 | fp16 | fp32
    gradient_checkpointing: bool | None = None   # None: on GPUs, off on CPU
    cpu_threads: int = 0                   # torch threads on CPU; 0: torch's default (1 is fastest on a busy machine)
    trainer: Mapping[str, Any] = field(default_factory=dict)   # any other trl.SFTConfig argument


@dataclass(frozen=True)
class PolicyTrainingSettings:
    """The keys ``dpo`` and ``grpo`` share: the policy, the optimizer (unset ones filled by the preset),
    checkpoints, reporting and the device. ``DPOSettings`` and ``GRPOSettings`` add their own."""

    model: str = ""                        # the policy to start from (usually the SFT output)
    output_dir: Path | None = None
    preset: str = "full"                   # full | lora
    learning_rate: float | None = None     # None: the preset's
    lr_scheduler_type: str | None = None
    warmup_ratio: float | None = None
    per_device_batch_size: int | None = None   # GRPO: completions per device and micro-step
    global_batch_size: int | None = None   # GRPO: completions per optimizer step (a multiple of num_generations)
    weight_decay: float | None = None
    max_grad_norm: float | None = None
    max_steps: int | None = None
    lora: LoraSettings = field(default_factory=LoraSettings)
    save_steps: int = 50
    save_total_limit: int = 3
    logging_steps: int = 1
    report_to: tuple[str, ...] = ("none",)
    resume: str = ""
    seed: int = 0
    device: str = "auto"
    precision: str = "auto"
    gradient_checkpointing: bool | None = None
    cpu_threads: int = 0
    trainer: Mapping[str, Any] = field(default_factory=dict)   # any other trl.DPOConfig / trl.GRPOConfig argument


@dataclass(frozen=True)
class DPOSettings(PolicyTrainingSettings):
    ref_model: str = ""                    # "": the starting policy itself (frozen copy / adapter disabled)
    pairs: tuple[Path, ...] = ()           # preference datasets from ``kernelgen-lm sample``
    beta: float | None = None
    max_length: int = 16384
    eval: EvalSettings = field(default_factory=EvalSettings)


@dataclass(frozen=True)
class SampleSettings:
    model: str = ""                        # any benchmark model spec: a local directory (vLLM when installed,
                                           # else transformers), http(s)://HOST:PORT/v1#NAME, replay:FILE, ...
    lora: Path | None = None               # LoRA adapter applied to a local model
    cases: tuple[Path, ...] = ()           # case roots or folders (either layout)
    tasks: tuple[str, ...] = ()            # case-id globs; empty: every case found
    eval_tasks: tuple[str, ...] = ()       # case-id globs of the evaluation split (never sampled by default)
    eval_share: float = 0.2                # share of the other tasks put in the evaluation split (stable hash)
    include_eval_tasks: bool = False
    out: Path | None = None                # run directory + pairs dataset
    samples: int = 8
    temperature: float = 0.8
    top_p: float = 0.95
    max_tokens: int = 8192
    seed: int = 0
    project_level: bool = False
    policy: str = DEFAULT_POLICY           # which classes make pairs (see kernelgen_lm.pairs)
    max_pairs_per_task: int = 0            # 0: every pair the policy allows
    toolchain: str = "ascendc-sim"
    shapes: str = "static"
    shape_examples: int = 4
    seeds: int = 0                         # input seeds per shape; 0: the case's own
    resume: bool = True                    # reuse completions and results already in ``out``
    timeout: float = 600.0                 # seconds per request (servers)
    concurrency: int = 8                   # parallel requests (servers)
    max_retries: int = 5                   # per request (servers); an unreachable server fails at once
    cpu_threads: int = 0                   # torch threads of a local model generating on CPU (0: torch's default;
                                           # 1 is several times faster on a busy machine)
    engine: Mapping[str, Any] = field(default_factory=dict)   # vLLM engine settings: tensor_parallel_size,
                                           # gpu_memory_utilization, max_model_len, max_lora_rank, ...

    def __post_init__(self) -> None:
        # the paper's colour names (green>orange+purple, ...) under their current names, however built
        object.__setattr__(self, "policy", canonical_policy(self.policy))


@dataclass(frozen=True)
class GRPOSettings(PolicyTrainingSettings):
    cases: tuple[Path, ...] = ()           # case roots or folders: the prompts are their benchmark prompts
    tasks: tuple[str, ...] = ()            # case-id globs; empty: every case found
    eval_tasks: tuple[str, ...] = ()       # case-id globs of the evaluation split (never trained on by default)
    eval_share: float = 0.2                # share of the other tasks put in the evaluation split (stable hash)
    include_eval_tasks: bool = False
    num_generations: int = 8               # completions per prompt (one GRPO group)
    max_completion_length: int = 4096      # new tokens per completion
    temperature: float = 1.0
    top_p: float = 1.0
    beta: float = 0.0                      # KL coefficient to the starting policy (0: no reference model)
    negative_advantage_scale: float = 1.0  # weight of below-average completions' advantages (1: plain
                                           # GRPO; 0: learn only from better-than-average ones)
    project_level: bool = False            # the project-level prompt
    reward: RewardShaping = field(default_factory=RewardShaping)   # the reward per verdict (kernelgen_lm.rewards)
    toolchain: str = "ascendc-sim"
    shapes: str = "static"
    shape_examples: int = 4
    jobs: int = 2                          # worker processes (reward_backend ray: Ray actors) evaluating completions
    reward_backend: str = "local"          # local: worker processes here; ray: a RayRewardPool of jobs actors
    ray_address: str = ""                  # reward_backend ray: the cluster ("auto", HOST:PORT; "": a local one)
    ray_timeout: float = 600.0             # reward_backend ray: seconds per evaluation before its actor is killed
    turns: int = 1                         # multi-turn repair: a failing completion gets its feedback and the
                                           # policy answers again, up to this many turns (kernelgen_lm.repair_turns)
    turn_discount: float = 0.8             # the episode's reward: the final turn t's reward x turn_discount^(t-1)
    use_vllm: bool = False                 # generate with vLLM (trl's colocate mode) when installed
    engine: Mapping[str, Any] = field(default_factory=dict)   # trl vllm_* settings without the prefix:
                                           # gpu_memory_utilization, tensor_parallel_size, mode, ...


Settings = SFTSettings | DPOSettings | SampleSettings | GRPOSettings


def parse_overrides(argv: Sequence[str]) -> list[tuple[str, Any]]:
    """``--key value`` / ``--key=value`` pairs -> (dotted key, YAML-parsed value)."""
    import yaml

    out: list[tuple[str, Any]] = []
    items = list(argv)
    i = 0
    while i < len(items):
        token = items[i]
        if not token.startswith("--") or len(token) == 2:
            raise ConfigError(f"command line: expected --key value, got {token!r}")
        key, sep, raw = token[2:].partition("=")
        if not sep:
            if i + 1 >= len(items) or (items[i + 1].startswith("--") and len(items[i + 1]) > 2):
                raise ConfigError(f"command line: --{key} needs a value")
            raw = items[i + 1]
            i += 1
        i += 1
        try:
            value = yaml.safe_load(raw) if raw != "" else ""
        except yaml.YAMLError as exc:
            raise ConfigError(f"command line: --{key}: the value is not valid YAML ({exc})") from None
        out.append((key.replace("-", "_"), value))
    return out


def _read_yaml(path: Path) -> dict[str, Any]:
    import yaml

    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at the top level")
    return data


def load_settings(cls: type, config: Path | str | None = None, argv: Sequence[str] = (),
                  data: Mapping[str, Any] | None = None) -> Any:
    """Settings of type ``cls`` from defaults < preset < ``config`` (YAML) and ``data`` < ``argv``."""
    layers: dict[str, Any] = {}
    where = "settings"
    base = Path.cwd()
    if config is not None:
        path = Path(config)
        layers = _read_yaml(path)
        where, base = path.name, path.resolve().parent
    if data:
        layers.update(dict(data))
    merged = plain(read_dataclass(cls, layers, where, base))
    explicit = {k for k in layers}
    cli: dict[str, Any] = {}
    for key, value in parse_overrides(argv):
        set_dotted(cli, key, value)
        explicit.add(key.split(".")[0])
    if cli:
        cli_read = plain(read_dataclass(cls, cli, "command line", Path.cwd()))
        for key in cli:
            if isinstance(cli[key], dict) and isinstance(merged.get(key), dict):
                merged[key] = _merge(merged[key], cli_read[key], cli[key])
            else:
                merged[key] = cli_read[key]
    preset_table = {DPOSettings: DPO_PRESETS, SFTSettings: PRESETS, GRPOSettings: GRPO_PRESETS}.get(cls)
    if preset_table is not None:
        preset = merged.get("preset")
        if preset not in preset_table:
            raise ConfigError(f"{where}: preset: unknown preset {preset!r}; use {' or '.join(preset_table)}")
        for key, value in preset_table[preset].items():
            if key not in explicit or merged.get(key) is None:
                merged[key] = value
    for key in ("model", "ref_model"):
        if isinstance(merged.get(key), str):
            merged[key] = resolve_model_spec(merged[key], base if key in layers else Path.cwd())
    settings = read_dataclass(cls, merged, where, base)
    validate(settings, where)
    return settings


def resolve_model_spec(spec: str, base: Path) -> str:
    """A model spec naming a relative path that exists under ``base`` (``./model``, ``hf:out/sft``,
    ``replay:runs/x.jsonl``) made absolute; anything else (hub names, URLs) unchanged."""
    prefix, sep, rest = spec.partition(":")
    if sep and prefix in ("hf", "vllm", "replay") and rest:
        return f"{prefix}:{resolve_model_spec(rest, base)}"
    if not spec or "://" in spec or Path(spec).is_absolute():
        return spec
    candidate = (base / spec).expanduser()
    return str(candidate.resolve()) if candidate.exists() else spec


def _merge(base: dict[str, Any], read: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in given.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], read[key], value)
        else:
            out[key] = read[key]
    return out


def validate(settings: Any, where: str) -> None:
    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {problem}")

    if isinstance(settings, SFTSettings | DPOSettings | GRPOSettings):
        if not settings.model:
            raise fail("model", "required (a local model directory or a hub name)")
        if settings.output_dir is None:
            raise fail("output_dir", "required (where checkpoints and the final model go)")
        if settings.device not in ("auto", "cpu", "cuda"):
            raise fail("device", f"expected auto, cpu or cuda, got {settings.device!r}")
        if settings.precision not in ("auto", "bf16", "fp16", "fp32"):
            raise fail("precision", f"expected auto, bf16, fp16 or fp32, got {settings.precision!r}")
    if isinstance(settings, GRPOSettings):
        _validate_grpo(settings, fail)
    if isinstance(settings, SFTSettings | DPOSettings):
        data = settings.dataset if isinstance(settings, SFTSettings) else settings.pairs
        key = "dataset" if isinstance(settings, SFTSettings) else "pairs"
        if not data:
            raise fail(key, "required: at least one dataset (a datasets folder, .jsonl, .json or .parquet)")
        for i, path in enumerate(data):
            if not Path(path).exists():
                raise fail(f"{key}[{i}]", f"{path} does not exist")
        if settings.global_batch_size is not None and settings.per_device_batch_size is not None \
                and settings.global_batch_size < settings.per_device_batch_size:
            raise fail("global_batch_size", "smaller than per_device_batch_size")
        if isinstance(settings, SFTSettings) and settings.chat_template is not None \
                and not settings.chat_template.is_file():
            raise fail("chat_template", f"{settings.chat_template} does not exist")
    if isinstance(settings, SampleSettings):
        if not settings.model:
            raise fail("model", "required: a model spec (local directory, http(s)://HOST:PORT/v1#NAME, replay:FILE)")
        if not settings.cases:
            raise fail("cases", "required: at least one case root or case folder")
        for i, path in enumerate(settings.cases):
            if not Path(path).exists():
                raise fail(f"cases[{i}]", f"{path} does not exist")
        if settings.out is None:
            raise fail("out", "required (the run directory; pairs go to OUT/pairs)")
        if settings.policy not in PAIR_POLICIES:
            raise fail("policy", f"unknown policy {settings.policy!r}; use one of {', '.join(PAIR_POLICIES)}")
        if settings.samples < 1:
            raise fail("samples", "at least 1")
        if not 0 <= settings.eval_share < 1:
            raise fail("eval_share", "expected a number in [0, 1)")
    evals = getattr(settings, "eval", None)
    if evals is not None and evals.every_steps > 0:
        if not evals.cases:
            raise fail("eval.cases", "the evaluation callback needs case roots or folders")
        for i, path in enumerate(evals.cases):
            if not Path(path).exists():
                raise fail(f"eval.cases[{i}]", f"{path} does not exist")
        if evals.backend not in ("", "hf", "vllm"):
            raise fail("eval.backend", f"expected '', hf or vllm, got {evals.backend!r}")


def _validate_grpo(settings: GRPOSettings, fail: Any) -> None:
    if not settings.cases:
        raise fail("cases", "required: at least one case root or case folder (the prompts)")
    for i, path in enumerate(settings.cases):
        if not Path(path).exists():
            raise fail(f"cases[{i}]", f"{path} does not exist")
    if settings.num_generations < 2:
        raise fail("num_generations", "at least 2 (GRPO compares completions within a group)")
    if settings.global_batch_size is not None and settings.global_batch_size % settings.num_generations:
        raise fail("global_batch_size", f"{settings.global_batch_size} is not a multiple of num_generations "
                                        f"({settings.num_generations})")
    if settings.jobs < 1:
        raise fail("jobs", "at least 1")
    if not 0 <= settings.negative_advantage_scale <= 1:
        raise fail("negative_advantage_scale",
                   f"expected a number in [0, 1], got {settings.negative_advantage_scale!r}")
    if settings.reward_backend not in ("local", "ray"):
        raise fail("reward_backend", f"expected local or ray, got {settings.reward_backend!r}")
    if settings.reward_backend == "ray":
        from kernelgen_lm.reward_pool import ray_unavailable_reason

        reason = ray_unavailable_reason()
        if reason:
            raise fail("reward_backend", f"ray: {reason}")
    elif settings.ray_address:
        raise fail("ray_address", "set, but reward_backend is local (use reward_backend: ray)")
    if settings.ray_timeout <= 0:
        raise fail("ray_timeout", "expected a number of seconds > 0")
    if settings.turns < 1:
        raise fail("turns", f"at least 1 (1: one turn, no feedback), got {settings.turns}")
    if not 0 < settings.turn_discount <= 1:
        raise fail("turn_discount", f"expected a number in (0, 1], got {settings.turn_discount}")
    if settings.shapes not in ("static", "dynamic", "both"):
        raise fail("shapes", f"expected static, dynamic or both, got {settings.shapes!r}")
    if not 0 <= settings.eval_share < 1:
        raise fail("eval_share", "expected a number in [0, 1)")

"""The build: stages -> verification filter -> decontamination -> deduplication -> mixing -> outputs.

Resuming: each finished stage is saved to ``OUT/work/<stage>.json`` with a fingerprint of the settings
it depends on; a rerun with the same settings reuses it. Inside a stage, teacher answers (live
teachers: the completion cache in ``OUT/cache/teacher``) and verification outcomes
(``OUT/cache/verify.jsonl``) are cached as they arrive, so a build killed mid-stage redoes no model
call and no kernel run. ``fresh=True`` starts over (caches, work files and teacher records removed).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascend_cot.config import BuildConfig, load_config
from ascend_cot.context import StageContext, StageResult
from ascend_cot.sample import SOURCES, STAGES, Drop, Sample

WORK_VERSION = 1
STAGE_SOURCES = {"docs": ("docs",), "kernel": ("kernel",), "project": ("project",), "general": ("general",),
                 "errors": ("api_debug", "kernel_debug")}


class BuildError(RuntimeError):
    """The build cannot go on; the message says why (finished stages are kept in OUT/work)."""


@dataclass(frozen=True)
class BuildOutcome:
    out: Path
    samples: int
    stats: dict[str, Any]


def _stage_runner(stage: str) -> Callable[[StageContext], StageResult]:
    from ascend_cot.stages import docs, errors, general, kernel, project

    return {"docs": docs.run, "kernel": kernel.run, "project": project.run, "general": general.run,
            "errors": errors.run}[stage]


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


def fingerprint(config: BuildConfig, stage: str) -> str:
    """What a stage's output depends on: its settings, the teacher, verification, the docs it
    retrieves from, the tokenizer (general), and a replay teacher's file content."""
    data = config.to_json()
    parts: dict[str, Any] = {"v": WORK_VERSION, "stage": data["stages"][stage], "verify": data["verify"]}
    if stage != "general":
        parts["teacher"] = data["teacher"]
        model = config.teacher.model
        if model.startswith("replay:"):
            base = config.source_file.parent if config.source_file else Path.cwd()
            path = Path(model[len("replay:"):]).expanduser()
            parts["replay"] = _file_digest(path if path.is_absolute() else base / path)
    if stage in ("docs", "errors"):
        parts["docs"] = data["stages"]["docs"]
    if stage == "general":
        parts["tokenizer"] = data["tokenizer"]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def _load_stage(path: Path, fp: str, config_hash: str) -> StageResult | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if data.get("fingerprint") != fp:
        return None
    samples = [Sample.from_json(r) for r in data["samples"]]
    samples = [dataclasses.replace(s, provenance=dataclasses.replace(s.provenance, config_hash=config_hash))
               for s in samples]
    return StageResult(samples, [Drop.from_json(r) for r in data["drops"]])


def _with_replay_path(config: BuildConfig) -> BuildConfig:
    """A relative ``replay:FILE`` is relative to the config file."""
    model = config.teacher.model
    if model.startswith("replay:") and config.source_file is not None:
        path = Path(model[len("replay:"):]).expanduser()
        if not path.is_absolute():
            resolved = (config.source_file.parent / path).resolve()
            return dataclasses.replace(config, teacher=dataclasses.replace(config.teacher, model=f"replay:{resolved}"))
    return config


def _keep_filter(config: BuildConfig, samples: list[Sample]) -> tuple[list[Sample], list[Drop]]:
    stages = config.stages
    keep = {"docs": config.keep_for(stages.docs.keep), "kernel": config.keep_for(stages.kernel.keep),
            "project": config.keep_for(stages.project.keep), "general": config.keep_for(stages.general.keep),
            "api_debug": config.keep_for(stages.errors.keep), "kernel_debug": config.keep_for(stages.errors.keep)}
    kept, drops = [], []
    for s in samples:
        if s.verified.value in keep[s.source]:
            kept.append(s)
        else:
            stage = next(k for k, v in STAGE_SOURCES.items() if s.source in v)
            drops.append(Drop(stage, s.source, f"verification_{s.verified.value}", s.origin, s.task, s.note[:300],
                              s.assistant()))
    return kept, drops


def _decontaminate(config: BuildConfig, samples: list[Sample],
                   stats: dict[str, Any]) -> tuple[list[Sample], list[Drop]]:
    cfg = config.decontamination
    if not cfg.enabled or not cfg.against:
        stats["decontamination"] = {"enabled": False}
        return samples, []
    from ascend_cot.decontamination import BenchmarkIndex, benchmark_texts

    texts, ids = benchmark_texts(cfg.against, cfg.exclude_cases)
    index = BenchmarkIndex(texts, cfg.ngram, cfg.common_documents)
    kept, drops = [], []
    worst = worst_kept = 0.0
    for s in samples:
        o = index.overlap(s.text())
        worst = max(worst, o.share)
        if o.total and (o.share >= cfg.max_overlap or o.run >= cfg.max_run):
            stage = next(k for k, v in STAGE_SOURCES.items() if s.source in v)
            drops.append(Drop(stage, s.source, "contaminated", s.origin, s.task,
                              f"{o.matched} of {o.total} {cfg.ngram}-grams ({o.share:.0%}) occur in held-out "
                              f"benchmark cases; longest verbatim run {o.run}",
                              extra={"matched": o.matched, "total": o.total, "run": o.run}))
        else:
            kept.append(s)
            worst_kept = max(worst_kept, o.share)
    stats["decontamination"] = {"enabled": True, "held_out_cases": len(ids), "benchmark_documents": index.documents,
                                "checked": len(samples), "dropped": len(drops), "max_share_kept": round(worst_kept, 4),
                                "max_share": round(worst, 4)}
    return kept, drops


def _mix(config: BuildConfig, samples: list[Sample]) -> tuple[list[Sample], list[Drop]]:
    out: list[Sample] = []
    drops: list[Drop] = []
    for source in SOURCES:
        group = [s for s in samples if s.source == source]
        weight = float(config.mix.get(source, 1.0))
        whole, frac = int(weight), weight - int(weight)
        ranked = sorted(group, key=lambda s: hashlib.sha256(f"{config.seed}:{s.id}".encode()).hexdigest())
        extra = set(id(s) for s in ranked[:round(frac * len(group))])
        for s in group:
            copies = whole + (1 if id(s) in extra else 0)
            if copies == 0:
                stage = next(k for k, v in STAGE_SOURCES.items() if s.source in v)
                drops.append(Drop(stage, s.source, "mix_excluded", s.origin, s.task, f"mix.{source} = {weight:g}"))
            out.extend([s] * copies)
    random.Random(config.seed).shuffle(out)
    return out, drops


def build(config: BuildConfig | Path | str, out: Path | str, *, fresh: bool = False, progress: bool = True,
          overrides: Sequence[str] = (), log: Callable[[str], None] | None = None) -> BuildOutcome:
    """Build the corpus described by ``config`` (a BuildConfig or a YAML path) into ``out``."""
    from ascend_cot.output import write_outputs
    from ascend_cot.stats import build_stats

    if not isinstance(config, BuildConfig):
        config = load_config(config, overrides)
    config = _with_replay_path(config)
    log = log or (lambda msg: print(f"ascend-cot: {msg}", file=sys.stderr, flush=True))
    out = Path(out)
    try:
        if fresh:
            for sub in ("work", "cache", "teacher"):
                shutil.rmtree(out / sub, ignore_errors=True)
        (out / "work").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise BuildError(f"cannot write the output folder {out}: {exc.strerror or exc}") from None
    _write_json(out / "config.json", {"config_hash": config.config_hash, **config.to_json()})
    started = time.monotonic()
    ctx = StageContext(config, out, progress)
    results: dict[str, StageResult] = {}
    stage_stats: dict[str, dict[str, Any]] = {}
    try:
        for stage in STAGES:
            if not getattr(config.stages, stage).enabled:
                continue
            fp = fingerprint(config, stage)
            work = out / "work" / f"{stage}.json"
            t0 = time.monotonic()
            result = _load_stage(work, fp, config.config_hash)
            resumed = result is not None
            if result is None:
                log(f"stage {stage}: running")
                result = _stage_runner(stage)(ctx)
                _write_json(work, {"fingerprint": fp, "samples": [s.to_json() for s in result.samples],
                                   "drops": [d.to_json() for d in result.drops]})
            log(f"stage {stage}: {len(result.samples)} samples, {len(result.drops)} dropped"
                + (" (resumed from OUT/work)" if resumed else f" in {time.monotonic() - t0:.0f}s"))
            results[stage] = result
            stage_stats[stage] = {"samples": len(result.samples), "drops": len(result.drops), "resumed": resumed,
                                  "seconds": round(time.monotonic() - t0, 1)}
    finally:
        ctx.close()
    generated = [s for stage in STAGES if stage in results for s in results[stage].samples]
    drops = [d for stage in STAGES if stage in results for d in results[stage].drops]
    post: dict[str, Any] = {}
    kept, dropped = _keep_filter(config, generated)
    drops += dropped
    kept, dropped = _decontaminate(config, kept, post)
    drops += dropped
    from ascend_cot.dedup import deduplicate

    kept, removed = deduplicate(kept, config.dedup)
    for s, reason, twin in removed:
        stage = next(k for k, v in STAGE_SOURCES.items() if s.source in v)
        drops.append(Drop(stage, s.source, reason, s.origin, s.task, f"duplicate of sample {twin.split(':')[0]}"))
    final, dropped = _mix(config, kept)
    drops += dropped
    teacher = ctx._teacher
    verifier = ctx._verifier
    post["runtime"] = {"seconds": round(time.monotonic() - started, 1),
                       "teacher": teacher.name if teacher else config.teacher.model or None,
                       "teacher_requests": teacher.asked if teacher else 0,
                       "teacher_cache_hits": teacher.cache_hits if teacher else 0,
                       "verifications_run": verifier.runs if verifier else 0,
                       "verification_cache_hits": verifier.hits if verifier else 0}
    stats = build_stats(config, generated, final, drops, stage_stats, post)
    write_outputs(out, config, final, drops, stats)
    log(f"wrote {len(final)} samples to {out} ({', '.join(f'{k}: {v}' for k, v in stats['kept_by_source'].items())})")
    return BuildOutcome(out, len(final), stats)

"""``stats.json``: counts per stage and source, verification outcomes, drops by reason, token lengths;
and its terminal rendering (``ascend-cot stats DIR``)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ascend_cot.config import BuildConfig
from ascend_cot.sample import SOURCES, Drop, Sample

STATS = "stats.json"


class StatsError(ValueError):
    pass


def _lengths(values: list[int]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def pct(p: float) -> int:
        return ordered[min(len(ordered) - 1, int(p * (len(ordered) - 1) + 0.5))]

    return {"count": len(values), "min": ordered[0], "mean": round(sum(values) / len(values), 1), "p50": pct(0.5),
            "p95": pct(0.95), "max": ordered[-1]}


def token_lengths(config: BuildConfig, samples: Sequence[Sample]) -> dict[str, Any]:
    if config.tokenizer is not None:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(config.tokenizer)

        def count(s: Sample) -> int:
            if getattr(tokenizer, "chat_template", None):
                return len(tokenizer.apply_chat_template(list(s.messages), tokenize=True))
            return len(tokenizer(s.text(), add_special_tokens=False)["input_ids"])
        unit = f"tokens ({config.tokenizer.name}, chat template applied)"
    else:
        def count(s: Sample) -> int:
            return len(s.text().split())
        unit = "whitespace-separated words (no training tokenizer configured)"
    by_source: dict[str, list[int]] = {}
    for s in samples:
        by_source.setdefault(s.source, []).append(count(s))
    return {"unit": unit, "all": _lengths([n for v in by_source.values() for n in v]),
            **{src: _lengths(v) for src, v in sorted(by_source.items())}}


def build_stats(config: BuildConfig, generated: Sequence[Sample], final: Sequence[Sample], drops: Sequence[Drop],
                stages: dict[str, Any], post: dict[str, Any]) -> dict[str, Any]:
    verification: dict[str, dict[str, int]] = {}
    for s in generated:
        verification.setdefault(s.source, Counter())[s.verified.value] += 1      # type: ignore[index]
    kept_verification: dict[str, dict[str, int]] = {}
    for s in final:
        kept_verification.setdefault(s.source, Counter())[s.verified.value] += 1  # type: ignore[index]
    drops_by_stage: dict[str, Counter] = {}
    for d in drops:
        drops_by_stage.setdefault(d.stage, Counter())[d.reason] += 1
    return {
        "config_hash": config.config_hash,
        "total": len(final),
        "kept_by_source": {src: sum(1 for s in final if s.source == src) for src in SOURCES
                           if any(s.source == src for s in final)},
        "generated_by_source": dict(Counter(s.source for s in generated)),
        "stages": stages,
        "verification": {k: dict(v) for k, v in verification.items()},
        "kept_verification": {k: dict(v) for k, v in kept_verification.items()},
        "drops": dict(Counter(d.reason for d in drops)),
        "drops_by_stage": {k: dict(v) for k, v in drops_by_stage.items()},
        "drops_by_source": {k: dict(v) for k, v in _by(drops, "source").items()},
        "decontamination": post.get("decontamination", {}),
        "dedup": dict(Counter(d.reason for d in drops if d.reason.startswith("duplicate_"))),
        "mix": dict(config.mix),
        "tokens": token_lengths(config, final),
        "runtime": post.get("runtime", {}),
    }


def _by(drops: Sequence[Drop], attr: str) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for d in drops:
        out.setdefault(getattr(d, attr), Counter())[d.reason] += 1
    return out


def read_stats(folder: Path) -> dict[str, Any]:
    path = Path(folder) / STATS
    if not path.is_file():
        raise StatsError(f"{folder} has no {STATS}: not a finished ascend-cot build (run ascend-cot build first)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise StatsError(f"cannot read {path}: {exc}") from None


def render(stats: dict[str, Any]) -> str:
    lines = [f"samples: {stats['total']}   config {stats['config_hash']}"]
    lines.append("")
    lines.append(f"{'source':<14}{'kept':>6}{'made':>6}  verification (made)                      drops")
    for src in SOURCES:
        made = stats["generated_by_source"].get(src, 0)
        drops = stats["drops_by_source"].get(src, {})
        if not made and not drops:
            continue
        ver = ", ".join(f"{k} {v}" for k, v in sorted(stats["verification"].get(src, {}).items()))
        dropped = ", ".join(f"{k} {v}" for k, v in sorted(drops.items()))
        lines.append(f"{src:<14}{stats['kept_by_source'].get(src, 0):>6}{made:>6}  {ver:<40} {dropped}")
    lines.append("")
    lines.append("drops by reason: " + (", ".join(f"{k} {v}" for k, v in sorted(stats["drops"].items())) or "none"))
    dec = stats.get("decontamination") or {}
    if dec.get("enabled"):
        lines.append(f"decontamination: {dec['dropped']} of {dec['checked']} dropped against {dec['held_out_cases']} "
                     f"held-out cases ({dec['benchmark_documents']} files); highest kept overlap "
                     f"{dec['max_share_kept']:.0%}")
    tokens = stats.get("tokens") or {}
    overall = tokens.get("all") or {}
    if overall.get("count"):
        lines.append(f"length ({tokens['unit']}): min {overall['min']}, median {overall['p50']}, p95 "
                     f"{overall['p95']}, max {overall['max']}")
    rt = stats.get("runtime") or {}
    if rt:
        lines.append(f"teacher {rt.get('teacher')}: {rt.get('teacher_requests', 0)} requests "
                     f"({rt.get('teacher_cache_hits', 0)} from cache); verifications: "
                     f"{rt.get('verifications_run', 0)} run, {rt.get('verification_cache_hits', 0)} from cache; "
                     f"{rt.get('seconds', 0)} s")
    return "\n".join(lines)

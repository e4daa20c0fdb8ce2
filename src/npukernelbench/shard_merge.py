"""Merging the run directories of a sharded run (``--npukb-shard K/N``) into one run directory,
whose summary is computed over the union of the shards' samples, as if one process had run them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from npukernelbench.store import RESULTS, SUMMARY, RunDir

# Header fields that must agree between shards of one run (they change what a sample means).
SAME = ("model", "toolchain", "samples_per_task", "shapes", "shape_examples", "seed", "turns")


class MergeError(ValueError):
    """The directories are not shards of one run (or one sample is in two of them)."""


def merge_runs(shard_dirs: Sequence[Path], out: Path) -> tuple[RunDir, list[dict[str, Any]]]:
    """Write the merged run directory ``out``; returns it with the shards' infrastructure failures."""
    runs = [RunDir(Path(d)) for d in shard_dirs]
    resolved = {r.path.resolve() for r in runs}
    if len(resolved) != len(runs):
        raise MergeError("a run directory is named twice")
    if Path(out).resolve() in resolved:
        raise MergeError(f"--out {out} is one of the shard directories; merge into a new directory")
    for r in runs:
        if not (r.path / RESULTS).is_file():
            raise MergeError(f"{r.path} holds no {RESULTS} (is it a run directory?)")
    headers = [r.header() for r in runs]
    for name in SAME:
        values = {json.dumps(h.get(name)) for h in headers}
        if len(values) > 1:
            raise MergeError(f"the run directories disagree on {name!r} ({', '.join(sorted(values))}): they are "
                             "not shards of one run")
    owner: dict[tuple[str, int], Path] = {}
    results, completions, follow_ups, failures = [], {}, {}, []
    for r in runs:
        for result in r.turn_results():            # every turn of a multi-turn repair run (one otherwise)
            key = (result.task, result.sample)
            if owner.get(key, r.path) != r.path:
                raise MergeError(f"duplicate sample: {result.task} sample {result.sample} is in both {owner[key]} and "
                                 f"{r.path}")
            owner[key] = r.path
            results.append(result)
        completions.update(r.completions())
        follow_ups.update(r.follow_ups())
        summary = r.path / SUMMARY
        if summary.is_file():
            failures.extend(json.loads(summary.read_text(encoding="utf-8")).get("infrastructure_failures") or [])
    merged = RunDir(Path(out))
    merged.create(fresh=True)
    header = {k: v for k, v in headers[0].items() if k not in ("started", "npukb_version", "shard")}
    header["merged_from"] = [str(r.path) for r in runs]
    header["shards"] = [h.get("shard") for h in headers]
    if any(h.get("socs") for h in headers):           # shards hold different tasks: every SoC of any of them
        header["socs"] = sorted({soc for h in headers for soc in h.get("socs") or ()})
    merged.write_header(header)
    merged.write_completions((completions[key] for key in sorted(completions)),
                             [(key[2], follow_ups[key]) for key in sorted(follow_ups)])
    for result in sorted(results, key=lambda x: (x.task, x.sample, x.turn or 1)):
        merged.append_result(result)
    return merged, failures

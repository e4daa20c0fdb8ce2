"""Writing a build: ``data.jsonl``, ``dataset/`` (``datasets.load_from_disk``), ``drops.jsonl``,
``stats.json`` and ``README.md`` (the dataset card). Each file is written to a temporary name and
renamed into place, so a killed build never leaves a half-written output next to a complete one."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ascend_cot.card import dataset_card
from ascend_cot.config import BuildConfig
from ascend_cot.sample import Drop, Sample
from ascend_cot.stats import STATS


def _write_lines(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def write_dataset(folder: Path, samples: Sequence[Sample]) -> None:
    import datasets

    features = datasets.Features({
        "id": datasets.Value("string"),
        "messages": [{"role": datasets.Value("string"), "content": datasets.Value("string")}],
        "source": datasets.Value("string"), "origin": datasets.Value("string"), "task": datasets.Value("string"),
        "verified": datasets.Value("string"),
        "provenance": {"teacher": datasets.Value("string"), "prompt_hash": datasets.Value("string"),
                       "config_hash": datasets.Value("string")},
    })
    rows = [s.to_row() for s in samples]
    data = datasets.Dataset.from_list(rows, features=features) if rows else \
        datasets.Dataset.from_dict({name: [] for name in features}, features=features)
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    data.save_to_disk(str(tmp))
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(tmp, folder)


def write_outputs(out: Path, config: BuildConfig, samples: Sequence[Sample], drops: Sequence[Drop],
                  stats: dict[str, Any]) -> None:
    _write_lines(out / "data.jsonl", [s.to_json() for s in samples])
    _write_lines(out / "drops.jsonl", [d.to_json() for d in drops])
    write_dataset(out / "dataset", samples)
    tmp = out / (STATS + ".tmp")
    tmp.write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, out / STATS)
    (out / "README.md").write_text(dataset_card(config, stats), encoding="utf-8")

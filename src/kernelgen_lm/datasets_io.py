"""Reading and writing the training data: ``messages`` datasets for SFT (``ascend_cot`` output or any
chat dataset) and preference datasets for DPO, from ``datasets`` folders, JSONL, JSON or Parquet.

Every user mistake is a :class:`DataError` naming the file and the problem: a missing path, an
unreadable file, a dataset without a ``messages`` column, a row whose messages are not role/content
turns or hold no assistant turn, a preference dataset without ``prompt``/``chosen``/``rejected``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROLES = ("system", "user", "assistant", "tool")
PAIR_COLUMNS = ("prompt", "chosen", "rejected")


class DataError(ValueError):
    """A training dataset cannot be used; the message names the file and why."""


def read_table(path: Path) -> Any:
    """One dataset file or folder as a ``datasets.Dataset``."""
    import datasets

    path = Path(path)
    if not path.exists():
        raise DataError(f"{path}: no such file or folder")
    try:
        if path.is_dir():
            if (path / "dataset_dict.json").is_file():
                loaded = datasets.load_from_disk(str(path))
                if "train" not in loaded:
                    raise DataError(f"{path}: a DatasetDict without a 'train' split")
                return loaded["train"]
            if (path / "dataset_info.json").is_file() or (path / "state.json").is_file():
                return datasets.load_from_disk(str(path))
            if (path / "dataset").is_dir():          # an ascend-cot output folder
                return read_table(path / "dataset")
            raise DataError(f"{path}: a folder, but not a datasets folder (save_to_disk) nor an ascend-cot output")
        suffix = path.suffix.lower()
        kind = {".jsonl": "json", ".json": "json", ".parquet": "parquet"}.get(suffix)
        if kind is None:
            raise DataError(f"{path}: unsupported file type {suffix or '(none)'}; use a datasets folder, "
                            ".jsonl, .json or .parquet")
        return datasets.Dataset.from_json(str(path)) if kind == "json" else datasets.Dataset.from_parquet(str(path))
    except DataError:
        raise
    except Exception as exc:   # datasets raises many types for unreadable files
        raise DataError(f"{path}: cannot be read as a dataset: {type(exc).__name__}: {exc}".splitlines()[0]) from None


def _check_messages(path: Path, index: int, messages: Any) -> None:
    if not isinstance(messages, Sequence) or isinstance(messages, str) or not messages:
        raise DataError(f"{path}: row {index}: 'messages' must be a non-empty list of {{role, content}} turns")
    for turn in messages:
        if not isinstance(turn, Mapping) or not isinstance(turn.get("content"), str) \
                or turn.get("role") not in ROLES:
            raise DataError(f"{path}: row {index}: every turn needs a role ({', '.join(ROLES)}) and a string "
                            f"content, got {str(turn)[:80]}")
    if not any(t["role"] == "assistant" for t in messages):
        raise DataError(f"{path}: row {index}: no assistant turn to learn from")


def load_messages(paths: Sequence[Path]) -> Any:
    """The SFT dataset: the ``messages`` column of every path, concatenated (other columns dropped)."""
    import datasets

    tables = []
    for path in paths:
        table = read_table(Path(path))
        if "messages" not in table.column_names:
            raise DataError(f"{path}: no 'messages' column (found: {', '.join(table.column_names) or 'none'}); "
                            "SFT data holds chat turns, e.g. ascend-cot output or {'messages': [{'role': 'user', "
                            "'content': ...}, {'role': 'assistant', 'content': ...}]} per line")
        if len(table) == 0:
            raise DataError(f"{path}: the dataset is empty")
        for i, messages in enumerate(table["messages"]):
            _check_messages(Path(path), i, messages)
        tables.append(table.select_columns(["messages"]))
    if not tables:
        raise DataError("no SFT dataset given")
    return tables[0] if len(tables) == 1 else datasets.concatenate_datasets(tables)


def load_pairs(paths: Sequence[Path]) -> Any:
    """The DPO dataset: ``prompt`` (messages), ``chosen`` and ``rejected`` (assistant turns)."""
    import datasets

    tables = []
    for path in paths:
        table = read_table(Path(path))
        missing = [c for c in PAIR_COLUMNS if c not in table.column_names]
        if missing:
            raise DataError(f"{path}: not a preference dataset: missing column(s) {', '.join(missing)} "
                            f"(found: {', '.join(table.column_names) or 'none'}); make one with kernelgen-lm sample")
        if len(table) == 0:
            raise DataError(f"{path}: no preference pairs: {_empty_pairs_advice(Path(path))}")
        tables.append(table.select_columns(list(PAIR_COLUMNS)))
    return tables[0] if len(tables) == 1 else datasets.concatenate_datasets(tables)


def save_rows(folder: Path, rows: Sequence[Mapping[str, Any]], features: Any = None) -> Path:
    """``rows`` as a ``datasets`` folder (written beside and renamed into place) plus ``folder.jsonl``."""
    import json

    import datasets

    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    if rows or features is None:
        table = datasets.Dataset.from_list([dict(r) for r in rows], features=features)
    else:
        table = datasets.Dataset.from_dict({name: [] for name in features}, features=features)
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    table.save_to_disk(str(tmp), num_shards=1)     # an empty table still gets its shard (loadable)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(tmp, folder)
    lines = folder.with_suffix(".jsonl")
    with lines.with_name(lines.name + ".tmp").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(dict(row), ensure_ascii=False) + "\n")
    os.replace(lines.with_name(lines.name + ".tmp"), lines)
    return folder


def _empty_pairs_advice(path: Path) -> str:
    """What to do about an empty pairs dataset: from ``kernelgen-lm sample``'s ``pairs_stats.json`` beside
    it when there is one (the candidates' classes), else the general remedy."""
    import json

    from kernelgen_lm.pairs import DEFAULT_POLICY, no_pairs_advice

    stats_file = path.parent / "pairs_stats.json"
    try:
        stats = json.loads(stats_file.read_text(encoding="utf-8"))
        classes = {str(k): int(v) for k, v in dict(stats["classes"]).items()}
        policy = str(stats.get("policy") or DEFAULT_POLICY)   # no_pairs_advice reads the old colour names too
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ("sample again with kernelgen-lm sample, hotter or with more samples (--temperature 1.5, "
                "--samples 8), until its last line reports pairs")
    return f"{no_pairs_advice(classes, policy)} (kernelgen-lm sample, then dpo again)"

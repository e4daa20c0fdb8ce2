"""``validation/test_cases.csv`` rows, typed the way the upstream harness hands them to ``get_inputs``.

Upstream reads the file with pandas (``;`` separated), turns every numeric column without missing
values whose values are all integral into integers, and iterates rows with ``iterrows``. The values a
task's ``get_inputs(param, device)`` sees therefore follow pandas' rules, which task code relies on
(``int(param.get("n"))``, ``eval(param.get("shape"))``, ``param.get("flag") == 1``). This module
reproduces those rules without pandas:

- a column whose values are all integers is an integer column; all numbers: a float column (then
  an integer column again when every value is integral and none is missing); all of
  ``True/TRUE/true/False/FALSE/false``: a boolean column, which counts as numeric and so becomes
  0/1 integers; anything else: a string column;
- pandas' default missing-value markers (empty, ``None``, ``NA``, ``null``, ``nan``, ...) are NaN;
- a row of only integer columns holds ``numpy.int64`` values; a row of integer and float columns
  holds ``numpy.float64`` values throughout (pandas gives the row one common dtype); a row with any
  string or missing-value column keeps each column's own value (Python ``int``/``float``/``str``).
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

NA_VALUES = frozenset({"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
                       "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"})
TRUE_VALUES = frozenset({"True", "TRUE", "true"})
FALSE_VALUES = frozenset({"False", "FALSE", "false"})
_INT = re.compile(r"^[+-]?\d+$")


class RowsError(ValueError):
    """The CSV file cannot be read as a task's test cases."""


class Row(dict):
    """One test case: ``row.get(name, default)`` and ``row[name]`` as on a pandas row."""

    @property
    def case_id(self) -> Any:
        return self.get("case_id")

    def label(self) -> str:
        return ", ".join(f"{k}={_show(v)}" for k, v in self.items())


def _show(value: Any) -> str:
    if isinstance(value, float | np.floating) and math.isnan(value):
        return "NaN"
    return str(value.item() if hasattr(value, "item") else value)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _column(raw: list[str]) -> tuple[str, list[Any]]:
    """(kind, values) of one column: kind is int, float, bool or str; missing values are NaN."""
    stripped = [v.strip() for v in raw]
    missing = [v in NA_VALUES for v in stripped]
    present = [v for v, m in zip(stripped, missing, strict=True) if not m]
    if not present:
        return "float", [math.nan] * len(raw)
    if all(_INT.match(v) for v in present):
        if any(missing):
            return "float", [math.nan if m else float(int(v)) for v, m in zip(stripped, missing, strict=True)]
        return "int", [int(v) for v in stripped]
    if all(_float(v) is not None for v in present):
        values = [math.nan if m else float(v) for v, m in zip(stripped, missing, strict=True)]
        return "float", values
    if all(v in TRUE_VALUES or v in FALSE_VALUES for v in present):
        if any(missing):
            return "str", [math.nan if m else v in TRUE_VALUES for v, m in zip(stripped, missing, strict=True)]
        return "bool", [v in TRUE_VALUES for v in stripped]
    return "str", [math.nan if m else r for r, m in zip(raw, missing, strict=True)]


def _integral(kind: str, values: list[Any]) -> bool:
    """pandas ``is_numeric_dtype`` (bool included), no missing value, every value integral."""
    if kind not in ("int", "float", "bool"):
        return False
    return all(not (isinstance(v, float) and not math.isfinite(v)) and float(v) == int(float(v)) for v in values)


def read_rows(path: Path) -> list[Row]:
    """Every row of ``path`` (a ``;``-separated file with a header line), typed as upstream sees it."""
    try:
        with Path(path).open(encoding="utf-8", newline="") as fh:
            table = [r for r in csv.reader(fh, delimiter=";") if r and any(c.strip() for c in r)]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RowsError(f"{path}: cannot read: {exc}") from None
    if len(table) < 2:
        raise RowsError(f"{path}: no test cases (a header line and at least one row are needed)")
    header = [h.strip() for h in table[0]]
    body = table[1:]
    for number, row in enumerate(body, start=2):
        if len(row) > len(header):
            raise RowsError(f"{path}: line {number} has {len(row)} fields for {len(header)} columns")
    columns: dict[str, tuple[str, list[Any]]] = {}
    for j, name in enumerate(header):
        kind, values = _column([row[j] if j < len(row) else "" for row in body])
        if _integral(kind, values):
            kind, values = "int", [int(v) for v in values]
        columns[name] = (kind, values)
    kinds = {kind for kind, _ in columns.values()}
    rows = []
    for i in range(len(body)):
        if kinds == {"int"}:
            rows.append(Row({name: np.int64(values[i]) for name, (_, values) in columns.items()}))
        elif kinds <= {"int", "float"}:
            rows.append(Row({name: np.float64(values[i]) for name, (_, values) in columns.items()}))
        else:
            rows.append(Row({name: values[i] for name, (_, values) in columns.items()}))
    return rows

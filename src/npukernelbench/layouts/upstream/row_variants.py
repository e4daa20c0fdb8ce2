"""Drawn variations of a task's CSV rows: the dynamic cases of the upstream layout.

A task's rows are the family the variations come from. Every column is classified once over the
whole family (``classify``):

- ``case_id`` and columns with one value in the whole family are kept as they are;
- **shape** columns hold list literals of integers (``[8, 2048]``, ``[[48, 1024]]``, ``[[5],[5,5]]``):
  every dimension is a size;
- **size** columns hold integers, all >= 1, some >= 8 in the family (``m``, ``n``, ``batch``,
  ``num_classes``, ``head_num``): their values are sizes too;
- **choice** columns are the other attributes the family varies: floats, strings (``dtype``,
  ``reduction``), 0/1 flags; a draw takes one of the values the family shows;
- other integer columns (``dim``, ``k``, ``groupCount``, ``round_mode``: structure the task ties to
  other columns) keep the source row's value.

A draw (``row_strategy``) picks a source row and maps each distinct size value of it to a new one,
the same value everywhere it occurs, so that the relations between inputs hold (a normalised shape
that is the last dimension of the input, ``n`` equal to a shape's length); the map keeps the order
of two values that never share a column (``n <= len`` stays so; the dimensions of one shape vary
freely) and keeps the values of single-valued size columns (``head_size=512``). Each
new value is the old one, 1, a smaller one, a larger one (up to about twice) or one within 17 of it
(tails that are not a multiple of 32 bytes); hypothesis shrinks toward the source row itself.
Draws the task's own code refuses (its ``get_inputs``, its ``Model``, its ``ModelNew``) and draws
too large for the budget are discarded by the checker (``DrawRejected``).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npukernelbench.layouts.upstream.rows import Row
from npukernelbench.shapes import ShapeCase

KEEP, SHAPE, SIZE, CHOICE = "keep", "shape", "size", "choice"
SIZE_MIN_MAX = 8                 # a size column has a value at least this large somewhere in its family
NEAR = 17                        # "tails": new values within this distance of the old one


@dataclass(frozen=True)
class Column:
    name: str
    kind: str                    # keep | shape | size | choice
    values: tuple[Any, ...] = ()  # choice: the family's distinct values, in row order
    pinned: bool = False         # size: one value in the whole family, which every draw keeps


def _integral(value: Any) -> bool:
    if isinstance(value, bool | np.bool_):
        return False
    if isinstance(value, int | np.integer):
        return True
    return isinstance(value, float | np.floating) and math.isfinite(value) and float(value).is_integer()


def _shape_literal(value: Any) -> Any:
    """The nested list of ints a shape column's text holds, or None."""
    if not isinstance(value, str):
        return None
    try:
        parsed = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return parsed if isinstance(parsed, list) and _ints_only(parsed) else None


def _ints_only(value: Any) -> bool:
    if isinstance(value, list):
        return all(_ints_only(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


def _distinct(values: Sequence[Any]) -> tuple[Any, ...]:
    seen: dict[str, Any] = {}
    for v in values:
        seen.setdefault(repr(v), v)
    return tuple(seen.values())


def classify(rows: Sequence[Mapping[str, Any]]) -> dict[str, Column]:
    """Every column of the family, classified (see the module's docstring)."""
    columns: dict[str, Column] = {}
    for name in rows[0]:
        values = [r.get(name) for r in rows]
        distinct = _distinct(values)
        if name == "case_id":
            kind = KEEP
        elif all(_shape_literal(v) is not None for v in values):
            kind = SHAPE
        elif all(_integral(v) for v in values):
            numbers = [int(v) for v in values]
            if min(numbers) >= 1 and max(numbers) >= SIZE_MIN_MAX:
                kind = SIZE
            elif len(distinct) > 1 and set(numbers) <= {0, 1}:
                kind = CHOICE
            else:
                kind = KEEP
        else:
            kind = CHOICE if len(distinct) > 1 else KEEP
        columns[name] = Column(name, kind, distinct if kind == CHOICE else (), kind == SIZE and len(distinct) == 1)
    return columns


def _dims(value: Any) -> list[int]:
    if isinstance(value, list):
        return [d for v in value for d in _dims(v)]
    return [value]


def _mapped(value: Any, mapping: Mapping[int, int]) -> Any:
    if isinstance(value, list):
        return [_mapped(v, mapping) for v in value]
    return mapping[value]


def size_values(row: Mapping[str, Any], columns: Mapping[str, Column]) -> tuple[list[set[int]], set[int]]:
    """(the size values of ``row``, one set per column that holds sizes; those that single-valued size
    columns pin)."""
    groups: list[set[int]] = []
    pinned: set[int] = set()
    for name, column in columns.items():
        if column.kind == SHAPE:
            groups.append(set(_dims(_shape_literal(row[name]))))
        elif column.kind == SIZE:
            groups.append({int(row[name])})
            if column.pinned:
                pinned.add(int(row[name]))
    return groups, pinned


def _ordered(u: int, v: int, groups: Sequence[set[int]]) -> bool:
    """Whether the order of ``u`` and ``v`` is kept: they never occur in one column together (the
    dimensions of one shape are free; ``n`` against a shape's length, or one shape against another's
    dimension it never shares a column with, keeps its side)."""
    return not any(u in g and v in g for g in groups)


def with_sizes(row: Mapping[str, Any], columns: Mapping[str, Column], mapping: Mapping[int, int],
               choices: Mapping[str, Any]) -> Row:
    """``row`` with its sizes mapped and its choice columns set (values keep their types)."""
    drawn = Row(row)
    for name, column in columns.items():
        if column.kind == SHAPE:
            drawn[name] = str(_mapped(_shape_literal(row[name]), mapping))
        elif column.kind == SIZE:
            old = row[name]
            drawn[name] = type(old)(mapping[int(old)])
        elif column.kind == CHOICE and name in choices:
            drawn[name] = choices[name]
    return drawn


def row_strategy(rows: Sequence[Mapping[str, Any]]) -> Any:
    """A hypothesis strategy of dynamic :class:`ShapeCase` values (``row``: the drawn row; ``seed``:
    the index of its source row)."""
    from hypothesis import strategies as st

    columns = classify(rows)

    def menu(v: int) -> Any:
        return st.one_of(st.just(v), st.just(1), st.integers(1, max(1, v - 1)), st.integers(v + 1, 2 * v + 16),
                         st.integers(max(1, v - NEAR), v + NEAR))

    @st.composite
    def case(draw: Any) -> ShapeCase:
        index = draw(st.integers(0, len(rows) - 1))
        row = rows[index]
        groups, pinned = size_values(row, columns)
        mapping: dict[int, int] = {}
        for v in sorted(set().union(*groups)):
            if v in pinned:
                mapping[v] = v
                continue
            new = draw(menu(v))
            ceiling = min((p for p in pinned if p > v and _ordered(v, p, groups)), default=None)
            if ceiling is not None:
                new = min(new, ceiling)
            floor = max((mapping[u] for u in mapping if u < v and _ordered(u, v, groups)), default=1)
            mapping[v] = max(new, floor)
        choices = {}
        for name, column in columns.items():
            if column.kind == CHOICE:
                own = row[name]
                others = [v for v in column.values if repr(v) != repr(own)]
                choices[name] = draw(st.sampled_from([own, *others]))
        return ShapeCase(shapes={}, types={}, attrs={}, label="dynamic", row=with_sizes(row, columns, mapping, choices),
                         seed=index, kind="dynamic")

    return case()

"""Rows drawn from a task's CSV rows (the upstream layout's dynamic cases): columns classified over the
family, sizes varied consistently (equal values stay equal, order kept, single-valued size columns
kept, list lengths kept), attributes drawn from what the family shows, value types kept."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, find, given, settings

from npukernelbench.layouts.upstream.row_variants import CHOICE, KEEP, SHAPE, SIZE, classify, row_strategy
from npukernelbench.layouts.upstream.rows import Row

FAMILY = [
    Row({"case_id": 0, "shape": "[4, 40]", "n": 40, "head": 512, "dim": 1, "flag": 0, "eps": 1e-5, "dtype": "float16",
         "lists": "[[40], [4, 4]]"}),
    Row({"case_id": 1, "shape": "[48, 128]", "n": 100, "head": 512, "dim": 2, "flag": 1, "eps": 1e-6,
         "dtype": "float32", "lists": "[[128], [2, 2]]"}),
]
SETTINGS = settings(max_examples=200, database=None, deadline=None, suppress_health_check=list(HealthCheck))


def test_columns_are_classified_over_the_family():
    columns = classify(FAMILY)
    kinds = {name: c.kind for name, c in columns.items()}
    assert kinds == {"case_id": KEEP, "shape": SHAPE, "n": SIZE, "head": SIZE, "dim": KEEP, "flag": CHOICE,
                     "eps": CHOICE, "dtype": CHOICE, "lists": SHAPE}
    assert columns["head"].pinned and not columns["n"].pinned
    assert columns["dtype"].values == ("float16", "float32")


@SETTINGS
@given(row_strategy(FAMILY))
def test_drawn_rows_keep_the_relations_between_inputs(case):
    source = FAMILY[case.seed]
    row = case.row
    assert case.kind == "dynamic" and case.describe().startswith("drawn case case_id=")
    shape, lists = eval(row["shape"]), eval(row["lists"])
    old_shape, old_lists = eval(source["shape"]), eval(source["lists"])
    assert len(shape) == len(old_shape) and [len(s) for s in lists] == [len(s) for s in old_lists]
    values = {old: new for old, new in zip([*old_shape, *sum(old_lists, [])], [*shape, *sum(lists, [])], strict=True)}
    values.setdefault(source["n"], row["n"])
    assert values[source["n"]] == row["n"]                       # n equal to a dimension stays equal to it
    assert min(values.values()) >= 1 and max(values.values()) <= 512    # below the pinned 512, which it never shares
    assert row["head"] == 512
    assert row["head"] == 512 and row["dim"] == source["dim"] and row["case_id"] == source["case_id"]
    assert row["dtype"] in ("float16", "float32") and row["flag"] in (0, 1) and row["eps"] in (1e-5, 1e-6)


ICAMAX = [Row({"case_id": 0, "input_shape": "[50]", "n": 25}), Row({"case_id": 1, "input_shape": "[100]", "n": 100})]


@SETTINGS
@given(row_strategy(ICAMAX))
def test_the_order_of_values_in_different_columns_is_kept(case):
    length = eval(case.row["input_shape"])[0]
    assert case.row["n"] <= length                               # n <= len(x) stays so
    if case.seed == 1:
        assert case.row["n"] == length                           # equal stays equal


def test_draws_reach_size_one_tails_and_larger_and_smaller_rows():
    strategy = row_strategy(FAMILY)
    last = lambda case: eval(case.row["shape"])[-1]              # noqa: E731
    assert last(find(strategy, lambda c: last(c) == 1)) == 1
    assert last(find(strategy, lambda c: last(c) % 16 not in (0, 8) and last(c) > 40)) % 16 not in (0, 8)
    assert last(find(strategy, lambda c: last(c) > 40)) > 40
    assert last(find(strategy, lambda c: 1 < last(c) < 40)) < 40
    assert find(strategy, lambda c: c.row["dtype"] == "float32").row["dtype"] == "float32"


def test_value_types_are_kept():
    typed = [Row({"case_id": np.int64(0), "m": np.int64(64), "k": np.int64(16)}),
             Row({"case_id": np.int64(1), "m": np.int64(128), "k": np.int64(32)})]
    case = find(row_strategy(typed), lambda c: c.row["m"] != typed[c.seed]["m"])
    assert isinstance(case.row["m"], np.int64) and isinstance(case.row["k"], np.int64)
    floats = [Row({"case_id": np.float64(0), "m": np.float64(64), "eps": np.float64(0.5)}),
              Row({"case_id": np.float64(1), "m": np.float64(96), "eps": np.float64(0.25)})]
    case = find(row_strategy(floats), lambda c: c.row["m"] != floats[c.seed]["m"])
    assert isinstance(case.row["m"], np.float64) and float(case.row["m"]).is_integer()


def test_shrinking_goes_back_to_the_source_row():
    minimal = find(row_strategy(FAMILY), lambda c: True)
    assert minimal.seed == 0 and dict(minimal.row) == dict(FAMILY[0])

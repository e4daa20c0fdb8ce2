"""compare.py at its boundaries: ``|out - ref| <= atol + rtol * |ref|`` per dtype (the last value inside
and the first outside, found by walking the storage dtype one ulp at a time), infinities, the NaN
policies, -0.0, bfloat16, exact integers, structure, several outputs.

A verdict may become an RL reward: every test here pins a way a wrong output could slip through."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from npukernelbench.compare import ErrorLimits, compare_array, compare_outputs, same_bits
from npukernelbench.inputs import from_values, to_values
from npukernelbench.spec import DEFAULT_TOLERANCE, ParamDecl, SpecError, TaskSpec, Tolerance, load_spec

FLOATS = ("float16", "bfloat16", "float32", "float64")
VADD = Path(__file__).resolve().parents[1] / "data" / "gxx_cases" / "level1" / "math" / "vadd"


def tol(dtype: str) -> Tolerance:
    rtol, atol = DEFAULT_TOLERANCE[dtype]
    return Tolerance(rtol, atol)


def storage(values, dtype: str) -> np.ndarray:
    return from_values(np.asarray(values, dtype=np.float64), dtype)


def away_from_zero(stored: np.ndarray, steps: int) -> np.ndarray:
    """The storage value ``steps`` ulps further from zero (same sign; negative: towards zero)."""
    width = stored.dtype.itemsize
    bits = stored.view(f"u{width}").astype(np.int64) + steps
    return bits.astype(f"u{width}").view(stored.dtype)


def boundary(ref: float, dtype: str) -> tuple[np.ndarray, np.ndarray, float]:
    """(last storage value inside the tolerance, first outside one ulp further, the tolerance)."""
    t = tol(dtype)
    limit = t.atol + t.rtol * abs(ref)
    assert float(to_values(storage([ref], dtype), dtype)[0]) == ref, "pick references representable in the dtype"

    def diff(x: np.ndarray) -> float:
        return abs(float(np.asarray(to_values(x, dtype), dtype=np.float64)[0]) - ref)

    x = storage([ref + np.sign(ref) * limit], dtype)        # about at the bound, then ulp by ulp
    while diff(x) > limit:
        x = away_from_zero(x, -1)
    while diff(away_from_zero(x, 1)) <= limit:
        x = away_from_zero(x, 1)
    return x, away_from_zero(x, 1), limit


def verdict(got: np.ndarray, ref, dtype: str, nan_policy: str = "match"):
    return compare_array("y", got, np.asarray(ref, dtype=np.float64 if dtype != "bfloat16" else np.float32),
                         dtype, tol(dtype), nan_policy)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ref", [1.0, -100.0, 0.75, 3072.0])
def test_relative_boundary_one_ulp_apart(dtype: str, ref: float) -> None:
    inside, outside, limit = boundary(ref, dtype)
    assert verdict(inside, [ref], dtype).ok, (dtype, ref, to_values(inside, dtype), limit)
    bad = verdict(outside, [ref], dtype)
    assert not bad.ok and bad.index == (0,) and bad.mismatches == 1
    assert bad.max_abs > limit
    assert f"rtol={tol(dtype).rtol:g}" in bad.message and dtype in bad.message


@pytest.mark.parametrize("dtype", FLOATS)
def test_relative_part_uses_the_reference_magnitude(dtype: str) -> None:
    """Walking towards zero from the reference: the bound is rtol*|ref|, not rtol*|out| or a floor."""
    t = tol(dtype)
    ref = 512.0
    limit = t.atol + t.rtol * ref
    below = storage([ref - 1.5 * limit], dtype)
    assert not verdict(below, [ref], dtype).ok
    close = storage([ref - 0.4 * limit], dtype)
    assert abs(float(to_values(close, dtype)[0]) - ref) <= limit
    assert verdict(close, [ref], dtype).ok


@pytest.mark.parametrize("dtype", FLOATS)
def test_absolute_part_near_zero(dtype: str) -> None:
    t = tol(dtype)
    for ref in (0.0, -0.0):
        near = storage([0.5 * t.atol], dtype)
        far = storage([4 * t.atol], dtype)
        assert verdict(near, [ref], dtype).ok
        assert not verdict(far, [ref], dtype).ok
        assert not verdict(storage([-4 * t.atol], dtype), [ref], dtype).ok


@pytest.mark.parametrize("dtype", FLOATS)
def test_signed_zero_matches_zero(dtype: str) -> None:
    got = storage([-0.0, 0.0, -0.0], dtype)
    assert verdict(got, [0.0, -0.0, -0.0], dtype).ok


@pytest.mark.parametrize("dtype", FLOATS)
def test_infinities_must_match_with_their_sign(dtype: str) -> None:
    inf = np.inf
    assert verdict(storage([inf, -inf, 1.0], dtype), [inf, -inf, 1.0], dtype).ok
    for got, ref in (([-inf], [inf]), ([inf], [-inf]), ([1e4], [inf]), ([inf], [1.0]), ([-inf], [-1.0]),
                     ([np.nan], [inf])):
        bad = verdict(storage(got, dtype), ref, dtype)
        assert not bad.ok, (got, ref)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_policy_match(dtype: str) -> None:
    nan = np.nan
    assert verdict(storage([nan, 2.0], dtype), [nan, 2.0], dtype).ok
    for got in ([1.0, 2.0], [0.0, 2.0], [np.inf, 2.0]):          # NaN in the reference does not accept anything
        bad = verdict(storage(got, dtype), [nan, 2.0], dtype)
        assert not bad.ok and bad.index == (0,), got
    bad = verdict(storage([1.0, nan], dtype), [1.0, 2.0], dtype)
    assert not bad.ok and bad.index == (1,)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_policy_forbid(dtype: str) -> None:
    nan = np.nan
    assert not verdict(storage([nan], dtype), [nan], dtype, "forbid").ok
    assert not verdict(storage([nan], dtype), [1.0], dtype, "forbid").ok
    assert verdict(storage([1.0], dtype), [1.0], dtype, "forbid").ok


def test_error_figures_ignore_non_finite_elements() -> None:
    got = storage([np.inf, np.nan, 1.5, 10.0], "float64")
    good = verdict(got, [np.inf, np.nan, 1.5, 10.0], "float64")
    assert good.ok and good.max_abs == 0.0 and good.max_rel == 0.0
    off = compare_array("y", storage([np.inf, 2.0, 4.0], "float64"), np.array([np.inf, 1.0, 2.0]), "float64",
                        Tolerance(1.0, 0.0))
    assert off.ok and off.max_abs == pytest.approx(2.0) and off.max_rel == pytest.approx(1.0)
    bad = compare_array("y", storage([1.0, 9.0, 2.0, 7.0], "float32"), np.array([1.0, 2.0, 2.0, 3.0]), "float32",
                        tol("float32"))
    assert not bad.ok and bad.index == (1,) and bad.mismatches == 2
    assert bad.max_abs == pytest.approx(7.0) and bad.max_rel == pytest.approx(3.5)
    assert "2 of 4 elements" in bad.message and "index [1]" in bad.message and "got 9" in bad.message


def test_bfloat16_compares_the_decoded_value_against_float32_reference() -> None:
    ref = np.array([1.0, 3.14159265, -250.0, 1e-3], dtype=np.float32)
    got = from_values(ref, "bfloat16")                         # round to nearest bfloat16
    assert got.dtype == np.uint16
    assert compare_array("y", got, ref, "bfloat16", tol("bfloat16")).ok
    truncated = (ref.view(np.uint32) >> 16).astype(np.uint16) + np.uint16(3)    # 3 ulps off
    assert not compare_array("y", truncated, ref, "bfloat16", tol("bfloat16")).ok
    wrong_storage = ref.astype(np.float16)
    assert not compare_array("y", wrong_storage, ref, "bfloat16", tol("bfloat16")).ok


@pytest.mark.parametrize("dtype, values", [
    ("int8", [-128, 0, 127]), ("uint8", [0, 1, 255]), ("int32", [-(2 ** 31), 7, 2 ** 31 - 1]),
    ("int64", [2 ** 62 + 1, -(2 ** 62) - 1, 5]), ("uint32", [0, 2 ** 32 - 1, 9])])
def test_integers_compare_exactly(dtype: str, values: list[int]) -> None:
    ref = np.array(values, dtype=dtype)
    assert compare_array("y", ref.copy(), ref, dtype, None).ok
    for i in range(len(values)):
        got = ref.copy()
        got[i] = got[i] - 1 if i % 2 else got[i] + 1 if got[i] != np.iinfo(dtype).max else got[i] - 1
        bad = compare_array("y", got, ref, dtype, None)
        assert not bad.ok and bad.index == (i,) and bad.mismatches == 1, (dtype, i)
        assert "exact" in bad.message
    # the default tolerance table has no entry for integers: they stay exact
    assert load_spec(VADD).tolerance_for(dtype) is None


def test_declared_integer_tolerance() -> None:
    """``int8 = { atol = 1, mismatch = 0.001 }``: all within 1, at most 0.1% (at least one) different."""
    ref = np.zeros(3000, dtype=np.int8)
    t = Tolerance(0.0, 1.0, 0.001)
    got = ref.copy()
    got[[5, 17, 2999]] = [1, -1, 1]
    v = compare_array("y", got, ref, "int8", t)
    assert v.ok and v.max_abs == 1.0
    got[100] = 1                                                # a 4th differing element: 4 > 3
    assert not compare_array("y", got, ref, "int8", t).ok
    far = ref.copy()
    far[7] = 2                                                  # one element off by 2
    assert not compare_array("y", far, ref, "int8", t).ok
    small = np.array([3, 4], dtype=np.int32)
    assert compare_array("y", np.array([3, 5], np.int32), small, "int32", t).ok          # at least one may differ
    assert not compare_array("y", np.array([4, 5], np.int32), small, "int32", t).ok
    every = Tolerance(0.0, 2.0, 0.0)                            # atol alone: every element may differ by <= 2
    assert compare_array("y", np.array([5, 6], np.int32), small, "int32", every).ok
    assert not compare_array("y", np.array([6, 4], np.int32), small, "int32", every).ok
    big = np.array([2 ** 62, -(2 ** 62)], dtype=np.int64)
    assert not compare_array("y", big + np.array([2, 0]), big, "int64", Tolerance(0.0, 1.0, 1.0)).ok
    assert compare_array("y", big + np.array([1, 0]), big, "int64", Tolerance(0.0, 1.0, 1.0)).ok
    assert not compare_array("y", np.array([True]), np.array([False]), "bool", Tolerance(0.0, 1.0, 1.0)).ok


@pytest.mark.parametrize("entry, error", [
    ("int8 = { atol = 1.5 }", "atol"), ("int8 = { atol = -1 }", "atol"), ("int8 = { mismatch = 2 }", "mismatch"),
    ("int8 = { rtol = 0.1 }", "rtol"), ("bool = { atol = 1 }", "float dtypes"), ("int8 = 1", "expected a table")])
def test_integer_tolerance_spec_errors(entry: str, error: str, tmp_path: Path) -> None:
    folder = tmp_path / "vadd"
    shutil.copytree(VADD, folder)
    (folder / "case.toml").write_text((folder / "case.toml").read_text() + f"\n[tolerance]\n{entry}\n")
    with pytest.raises(SpecError, match=error):
        load_spec(folder)


def test_integer_tolerance_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "vadd"
    shutil.copytree(VADD, folder)
    (folder / "case.toml").write_text((folder / "case.toml").read_text()
                                      + "\n[tolerance]\nint8 = { atol = 1, mismatch = 0.001 }\n")
    spec = load_spec(folder)
    assert spec.tolerance_for("int8") == Tolerance(0.0, 1.0, 0.001) and spec.tolerance_for("int32") is None


def test_bool_compares_exactly() -> None:
    ref = np.array([True, False, True])
    assert compare_array("y", ref.copy(), ref, "bool", None).ok
    bad = compare_array("y", np.array([True, True, True]), ref, "bool", None)
    assert not bad.ok and bad.index == (1,) and bad.mismatches == 1


def test_structure_is_strict() -> None:
    ref = np.ones((2, 3), dtype=np.float32)
    t = tol("float32")
    assert not compare_array("y", ref.astype(np.float64), ref, "float32", t).ok        # storage dtype
    assert not compare_array("y", ref.reshape(3, 2), ref, "float32", t).ok              # shape
    assert not compare_array("y", ref.reshape(6), ref, "float32", t).ok
    assert not compare_array("y", ref.tolist(), ref, "float32", t).ok                   # not an array
    assert compare_array("y", np.zeros((0, 3), np.float32), np.zeros((0, 3)), "float32", t).ok
    scalar = compare_array("loss", np.array(2.5, np.float32), np.array(2.5), "float32", t)
    assert scalar.ok
    bad = compare_array("loss", np.array(2.6, np.float32), np.array(2.5), "float32", t)
    assert not bad.ok and bad.index == (0,)


def two_output_spec() -> TaskSpec:
    spec = load_spec(VADD)
    return replace(spec, outputs=(ParamDecl("z", "float32"), ParamDecl("idx", "int32"),
                                  ParamDecl("parts", "float16", kind="list")))


def test_every_output_is_compared() -> None:
    spec = two_output_spec()
    dtypes = {"z": "float32", "idx": "int32", "parts": "float16"}
    z = np.linspace(-3, 3, 7, dtype=np.float32)
    idx = np.arange(5, dtype=np.int32)
    parts = [np.full(3, 1.5, np.float16), np.full(2, -2.0, np.float16)]
    expected = {"z": z.astype(np.float64), "idx": idx.copy(), "parts": [p.astype(np.float32) for p in parts]}
    got = {"z": z.copy(), "idx": idx.copy(), "parts": [p.copy() for p in parts]}
    assert compare_outputs(spec, got, expected, dtypes).ok
    for name, broken in (("idx", {**got, "idx": idx + 1}),
                         ("parts[1]", {**got, "parts": [parts[0], parts[1] + np.float16(1)]}),
                         ("z", {**got, "z": z + 1})):
        bad = compare_outputs(spec, broken, expected, dtypes)
        assert not bad.ok and bad.output == name, (name, bad)
    missing = compare_outputs(spec, {"z": z, "idx": idx}, expected, dtypes)
    assert not missing.ok and missing.output == "parts" and "was not produced" in missing.message
    extra = compare_outputs(spec, {**got, "w": z}, expected, dtypes)
    assert not extra.ok and extra.output == "w" and "unexpected output" in extra.message
    short = compare_outputs(spec, {**got, "parts": parts[:1]}, expected, dtypes)
    assert not short.ok and "tensor list of 1 but 2 expected" in short.message
    not_list = compare_outputs(spec, {**got, "parts": parts[0]}, expected, dtypes)
    assert not not_list.ok and "not a list" in not_list.message


def test_worst_errors_are_reported_over_outputs() -> None:
    spec = replace(load_spec(VADD), outputs=(ParamDecl("a", "float64"), ParamDecl("b", "float64")),
                   tolerance={"float64": Tolerance(0.5, 0.0)})
    dtypes = {"a": "float64", "b": "float64"}
    expected = {"a": np.array([1.0, 4.0]), "b": np.array([10.0])}
    got = {"a": np.array([1.25, 4.0]), "b": np.array([13.0])}
    v = compare_outputs(spec, got, expected, dtypes)
    assert v.ok and v.max_abs == pytest.approx(3.0) and v.max_rel == pytest.approx(0.3)


def test_same_bits() -> None:
    a = np.array([1.0, np.nan, -0.0], dtype=np.float32)
    assert same_bits(a, a.copy())
    assert not same_bits(a, np.array([1.0, np.nan, 0.0], dtype=np.float32))        # -0.0 vs 0.0
    assert not same_bits(a, a.astype(np.float64))
    assert not same_bits(a, a.reshape(3, 1))
    assert same_bits([a, a], [a.copy(), a.copy()])
    assert not same_bits([a], [a, a])
    assert not same_bits([a], a)
    assert not same_bits(a, [a])


def test_failure_details() -> None:
    """What a failed verdict reports: the first mismatch, exact values, error figures over finite elements."""
    ref = np.array([7, 3, 5, 9], dtype=np.int32)
    bad = compare_array("y", np.array([7, 4, 5, 7], np.int32), ref, "int32", None)
    assert not bad.ok and bad.index == (1,) and bad.mismatches == 2
    assert bad.max_abs == 2.0 and bad.max_rel == 0.0
    assert "got 4, expected 3" in bad.message and "max abs error 2" in bad.message
    floats = compare_array("y", np.array([1.0, 9.0], np.float64), np.array([1.0, 2.0]), "float64", tol("float64"))
    assert "got 9, expected 2" in floats.message
    mixed = compare_array("y", storage([np.nan, 1.0, np.inf, 2.5], "float64"), np.array([1.0, np.nan, 1.0, 2.0]),
                          "float64", tol("float64"))
    assert not mixed.ok and mixed.mismatches == 4 and mixed.index == (0,)
    assert mixed.max_abs == float("inf") and mixed.max_rel == float("inf")   # NaN / infinite mismatches: unbounded
    assert "3 mismatched elements are NaN or infinite (error unbounded)" in mixed.message
    assert "max abs error 0.5 and max rel error 0.25 over the 1 finite elements" in mixed.message   # finite pairs
    nothing_finite = compare_array("y", storage([np.inf, np.nan], "float32"), np.array([np.inf, np.nan]), "float32",
                                   tol("float32"))
    assert nothing_finite.ok and nothing_finite.max_abs == 0.0 and nothing_finite.max_rel == 0.0
    exact = compare_array("y", ref.copy(), ref, "int32", None)
    assert (exact.max_abs, exact.max_rel, exact.mismatches, exact.index, exact.message) == (0.0, 0.0, 0, None, "")


def test_forbid_policy_still_applies_the_tolerance() -> None:
    assert not verdict(storage([1.5], "float32"), [1.0], "float32", "forbid").ok
    assert not verdict(storage([np.inf], "float32"), [1.0], "float32", "forbid").ok


def test_first_missing_or_extra_output_is_named() -> None:
    spec = two_output_spec()
    dtypes = {"z": "float32", "idx": "int32", "parts": "float16"}
    expected = {"z": np.zeros(2), "idx": np.zeros(2, np.int32), "parts": [np.zeros(2)]}
    missing = compare_outputs(spec, {"parts": [np.zeros(2, np.float16)]}, expected, dtypes)
    assert missing.output == "z" and "output 'z' was not produced" in missing.message
    extra = compare_outputs(spec, {"z": np.zeros(2, np.float32), "idx": np.zeros(2, np.int32),
                                   "parts": [np.zeros(2, np.float16)], "b": 1, "a": 2}, expected, dtypes)
    assert extra.output == "a" and "unexpected output 'a'" in extra.message


def test_verdict_is_immutable() -> None:
    v = compare_array("y", np.zeros(1, np.float32), np.zeros(1), "float32", tol("float32"))
    with pytest.raises(AttributeError):
        v.ok = False          # type: ignore[misc]


def test_same_bits_does_not_mix_lists_and_arrays() -> None:
    parts = [np.float32(1.0), np.float32(2.0)]
    assert not same_bits(parts, np.array([1.0, 2.0], np.float32))
    assert not same_bits(np.array([1.0, 2.0], np.float32), parts)


def test_an_element_may_match_the_task_dtype_result_instead() -> None:
    """The float32 value is 1.0; the same computation rounded step by step in float16 gave 1.01 (a
    cancellation): a kernel giving 1.01 passes through ``also``; one giving 1.02 matches neither."""
    expected, also = np.array([1.0, 2.0]), np.array([1.01, 2.0])
    assert not compare_array("y", storage([1.01, 2.0], "float16"), expected, "float16", tol("float16")).ok
    assert compare_array("y", storage([1.01, 2.0], "float16"), expected, "float16", tol("float16"), also=also).ok
    bad = compare_array("y", storage([1.02, 2.0], "float16"), expected, "float16", tol("float16"), also=also)
    assert not bad.ok and bad.index == (0,) and "expected 1" in bad.message


def test_large_outputs_are_compared_chunk_by_chunk_with_the_same_verdict() -> None:
    # more than one comparison chunk: counts, the first mismatch's index and value, and the worst
    # errors are those of the whole array, whichever chunk they fall in
    import npukernelbench.compare as compare

    n = 3 * compare._CHUNK + 16
    expected = np.linspace(1.0, 2.0, n, dtype=np.float32).reshape(n // 4, 4)
    got = expected.copy()
    assert compare_array("y", got, expected, "float32", tol("float32")).ok
    flat = got.reshape(-1)
    flat[compare._CHUNK + 7] += 0.5            # the first mismatch, in the second chunk
    flat[3 * compare._CHUNK + 2] = -9.0        # the worst, in the last (short) chunk
    verdict = compare_array("y", got, expected, "float32", tol("float32"))
    assert not verdict.ok and verdict.mismatches == 2, verdict
    first = compare._CHUNK + 7
    assert verdict.index == (first // 4, first % 4), verdict
    assert f"got {float(flat[first]):.6g}" in verdict.message, verdict.message
    assert verdict.max_abs == pytest.approx(9.0 + float(expected.reshape(-1)[3 * compare._CHUNK + 2]))
    # the task-dtype reference is consulted chunk by chunk too
    also = got.astype(np.float64)
    assert compare_array("y", got, expected, "float32", tol("float32"), also=also).ok


def test_an_overflow_the_task_dtype_makes_itself_passes_through_the_task_dtype_reference() -> None:
    # 1/x in float16 for a tiny x: the float32 reference is 131072, float16 (and so Model run in the
    # task's dtype) gives inf; a kernel giving inf matches the task-dtype result exactly
    got = storage([np.inf, 2.0], "float16")
    expected = np.array([131072.0, 2.0])
    assert compare_array("y", got, expected, "float16", tol("float16"), also=np.array([np.inf, 2.0])).ok
    # without that reference, or when the task-dtype result is finite, inf stays wrong
    assert not compare_array("y", got, expected, "float16", tol("float16")).ok
    assert not compare_array("y", got, expected, "float16", tol("float16"), also=np.array([65504.0, 2.0])).ok
    assert not compare_array("y", storage([-np.inf, 2.0], "float16"), expected, "float16", tol("float16"),
                             also=np.array([np.inf, 2.0])).ok
    # an infinite task-dtype result gives no licence to a finite output (its tolerance is infinite)
    assert not compare_array("y", storage([5.0, 2.0], "float16"), expected, "float16", tol("float16"),
                             also=np.array([np.inf, 2.0])).ok


UPSTREAM = ErrorLimits(max_abs=1e-3, max_rel=1e-3)


def test_fixed_limits_fail_an_element_only_when_both_errors_exceed_them() -> None:
    # float32's tolerance (1.3e-6 rtol, 1e-5 atol) rejects a reduction-order error of 6e-5 on a value of
    # 0.16; upstream's limits admit it (abs within 1e-3), and admit 0.01 off a value of 100 (rel 1e-4)
    expected = np.array([0.16, 100.0, 1.0])
    got = storage([0.16 + 6e-5, 100.01, 1.0], "float32")
    assert not compare_array("y", got, expected, "float32", tol("float32")).ok
    assert compare_array("y", got, expected, "float32", tol("float32"), limits=UPSTREAM).ok
    # both errors beyond them: 0.002 off a value of 1.0 (abs 2e-3, rel 2e-3) fails, and says why
    bad = compare_array("y", storage([0.16, 100.0, 1.002], "float32"), expected, "float32", tol("float32"),
                        limits=UPSTREAM)
    assert not bad.ok and bad.index == (2,) and "limits (abs 0.001 or rel 0.001)" in bad.message, bad.message
    # the relative error is taken against the reference, as upstream's check_precision does
    assert not compare_array("y", storage([0.0, 0.0, 0.0015], "float32"), np.zeros(3), "float32", tol("float32"),
                             limits=UPSTREAM).ok


def test_fixed_limits_apply_to_the_task_dtype_result_but_not_to_nan_or_infinity() -> None:
    expected, also = np.array([1.0, 2.0]), np.array([1.01, 2.0])
    near_also = storage([1.0105, 2.0], "float32")            # 5e-4 from the task-dtype result, 1e-2 from expected
    assert not compare_array("y", near_also, expected, "float32", tol("float32"), also=also).ok
    assert compare_array("y", near_also, expected, "float32", tol("float32"), also=also, limits=UPSTREAM).ok
    # a NaN or a wrong infinity is not "within" any limit
    for value in (np.nan, np.inf, -np.inf):
        assert not compare_array("y", storage([value, 2.0], "float32"), expected, "float32", tol("float32"),
                                 also=also, limits=UPSTREAM).ok
    # an infinite reference is matched only by the same infinity
    assert not compare_array("y", storage([65504.0, 2.0], "float16"), np.array([np.inf, 2.0]), "float16",
                             tol("float16"), limits=UPSTREAM).ok
    assert not compare_array("y", storage([5.0, 2.0], "float16"), expected, "float16", tol("float16"),
                             also=np.array([np.inf, 2.0]), limits=UPSTREAM).ok
    # integer outputs stay exact
    assert not compare_array("y", np.array([1, 2], np.int32), np.array([1, 3]), "int32", None, limits=UPSTREAM).ok


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
def test_huge_error_against_zero_is_reported_without_numpy_warnings(dtype) -> None:
    """Relative error of a large value where the reference is 0 overflows to inf: the verdict says so, and no
    RuntimeWarning ("overflow encountered in divide") leaks into the run's output."""
    got = storage([60000.0, 1.0], dtype)
    verdict = compare_array("z", got, np.array([0.0, 1.0]), dtype, tol(dtype))
    assert not verdict.ok and verdict.max_rel == float("inf") and verdict.mismatches == 1
    assert verdict.index == (0,)


@pytest.mark.parametrize("also_dtype", ["float16", "bfloat16"])
def test_task_dtype_result_in_its_storage_type_is_widened_chunk_by_chunk(also_dtype, monkeypatch) -> None:
    from npukernelbench import compare

    monkeypatch.setattr(compare, "_CHUNK", 3)               # several chunks of a 10-element output
    expected = np.linspace(1.0, 2.0, 10)
    also = from_values(expected + 0.01, also_dtype)          # the task-dtype result, rounded
    got = storage(to_values(also, also_dtype), "float32")   # exactly the task-dtype result
    widened = to_values(also, also_dtype).astype(np.float64)
    assert not compare_array("y", got, expected, "float32", tol("float32")).ok
    as_values = compare_array("y", got, expected, "float32", tol("float32"), also=widened)
    as_storage = compare_array("y", got, expected, "float32", tol("float32"), also=also, also_dtype=also_dtype)
    assert as_values.ok and as_storage.ok and as_storage == as_values
    got[7] += 0.25                                           # one element off both, in the third chunk
    failed = compare_array("y", got, expected, "float32", tol("float32"), also=also, also_dtype=also_dtype)
    assert not failed.ok and failed.index == (7,)

import math

import pytest

from npukernelbench.metrics import geomean, ks_for, label_agreement, level_summary, pass_at_k, summarize
from npukernelbench.result import ErrorCategory, SampleResult, Status


def test_pass_at_k_hand_computed():
    assert pass_at_k(5, 0, 1) == 0.0                       # c = 0
    assert pass_at_k(5, 5, 3) == 1.0                       # c = n
    assert pass_at_k(3, 1, 3) == 1.0                       # n = k, one correct
    assert pass_at_k(3, 0, 3) == 0.0                       # n = k, none correct
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)       # n > k: c/n at k=1
    # 1 - C(7,2)/C(10,2) = 1 - 21/45
    assert pass_at_k(10, 3, 2) == pytest.approx(1 - 21 / 45)
    assert pass_at_k(100, 10, 10) == pytest.approx(1 - math.comb(90, 10) / math.comb(100, 10))
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def r(task, sample, status, level=1, cat=None, speedup=None, suspect=False):
    return SampleResult(task, level, "Math", sample, status, cat, speedup=speedup, suspect=suspect)


def test_level_summary_and_suspects():
    results = [r("a", 0, Status.PASSED, speedup=2.0), r("a", 1, Status.WRONG),
               r("b", 0, Status.BUILD_ERROR, cat=ErrorCategory.SYNTAX_STRUCTURE), r("b", 1, Status.PASSED, speedup=50,
                                                                                  suspect=True)]
    s = level_summary(results, 2)
    assert s["tasks"] == 2 and s["samples"] == 4
    assert s["cr"]["pass@1"] == pytest.approx((1.0 + 0.5) / 2)
    assert s["er"]["pass@1"] == pytest.approx(0.5)
    assert s["speedup_geomean"] == 2.0                     # suspect 50x kept out
    assert s["fast_1"] == 0.5
    full = summarize(results, "m", "t", 2)
    assert set(full["levels"]) == {"level1", "level2", "level3", "mean"}
    assert "pass@10" not in full["levels"]["mean"]["cr"]
    assert full["taxonomy"]["syntax_structure"] == 1
    assert full["suspect_speedups"] == [{"task": "b", "sample": 1, "speedup": 50, "reason": ""}]


def test_label_agreement():
    a = SampleResult("a", 1, "M", 0, Status.BUILD_ERROR, ErrorCategory.API_SIGNATURE,
                     details={"expected_category": "api_signature"})
    b = SampleResult("a", 1, "M", 1, Status.BUILD_ERROR, ErrorCategory.OTHER,
                     details={"expected_category": "scope_lifetime"})
    c = SampleResult("a", 1, "M", 2, Status.BUILD_ERROR, ErrorCategory.SCOPE_LIFETIME,
                     details={"expected_category": "scope_lifetime"})
    passed = SampleResult("a", 1, "M", 3, Status.PASSED, details={"expected_category": "passed"})
    unlabelled = SampleResult("a", 1, "M", 4, Status.BUILD_ERROR, ErrorCategory.OTHER)
    assert label_agreement([a, b, c, passed, unlabelled]) == {"labelled": 3, "agree": 2, "rate": 0.6667}
    assert label_agreement([a, b]) == {"labelled": 2, "agree": 1, "rate": 0.5}
    assert label_agreement([]) is None and label_agreement([passed]) is None


def test_taxonomy_counts_build_errors_only():
    results = [r("a", 0, Status.BUILD_ERROR, cat=ErrorCategory.DTYPE_CONVERSION),
               r("a", 1, Status.WRONG, cat=ErrorCategory.DTYPE_CONVERSION),     # a category on a non-build result
               r("a", 2, Status.BUILD_ERROR)]
    counts = summarize(results, "m", "t", 3)["taxonomy"]
    assert counts["dtype_conversion"] == 1 and sum(counts.values()) == 1


def test_pass_at_k_edges():
    assert pass_at_k(1, 1, 1) == 1.0 and pass_at_k(1, 0, 1) == 0.0       # one sample: pass@1 exists
    assert pass_at_k(10, 1, 10) == 1.0 and pass_at_k(10, 0, 10) == 0.0
    assert pass_at_k(10, 9, 2) == 1.0                                     # n - c < k: every draw has a pass
    assert pass_at_k(10, 8, 2) == pytest.approx(1 - 1 / 45)              # n - c == k: one all-fail draw
    for n, c, k in ((3, 4, 1), (3, -1, 1), (3, 1, 0)):
        with pytest.raises(ValueError, match="needs n >= 1"):
            pass_at_k(n, c, k)
    with pytest.raises(ValueError, match="needs n >= 1"):
        pass_at_k(0, 0, 0)
    with pytest.raises(ValueError, match="needs n >= 1"):
        pass_at_k(0, 0, 1)
    with pytest.raises(ValueError, match="undefined with only n=1"):
        pass_at_k(1, 1, 2)


def test_ks_for_samples():
    assert ks_for(1) == (1,) and ks_for(9) == (1,) and ks_for(10) == (1, 10)
    assert ks_for(99) == (1, 10) and ks_for(100) == (1, 10, 100)


def test_geomean():
    assert geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert geomean([2.0, None, 0.0, -1.0, 8.0]) == pytest.approx(4.0)
    assert geomean([]) is None and geomean([0.0]) is None
    assert geomean([0.5, 2.0]) == pytest.approx(1.0) and geomean([0.25]) == pytest.approx(0.25)


def built(task, sample, passed, level=1, speedup=None):
    return r(task, sample, Status.PASSED if passed else Status.WRONG, level=level, speedup=speedup)


def test_summary_with_one_sample():
    results = [built("a", 0, True, speedup=1.5), built("b", 0, False),
               r("c", 0, Status.BUILD_ERROR, cat=ErrorCategory.API_SIGNATURE)]
    s = level_summary(results, 1)
    assert s == {"tasks": 3, "samples": 3, "cr": {"pass@1": 0.666667}, "er": {"pass@1": 0.333333},
                 "speedup_geomean": 1.5, "fast_1": 0.333333}                       # rounded to 6 digits
    two = level_summary([built("a", 0, True, speedup=1.5), built("b", 0, True, speedup=2.0)], 1)
    assert two["speedup_geomean"] == 1.7321                                          # 4 digits


def test_summary_with_ten_samples():
    a = [built("a", i, i < 3, speedup=2.0 if i < 3 else None) for i in range(10)]     # 3 of 10 pass
    b = [built("b", i, False) for i in range(10)]                                        # none
    c = [built("c", i, True, level=2, speedup=1.0) for i in range(10)]                   # all, not faster
    short = [built("d", i, True) for i in range(4)]                                      # fewer than k=10
    s = level_summary(a + b + short, 10)
    assert s["tasks"] == 3 and s["samples"] == 24
    assert s["er"] == {"pass@1": pytest.approx((0.3 + 0 + 1) / 3, abs=1e-6),
                       "pass@10": pytest.approx((1 + 0) / 2, abs=1e-6)}       # d has no pass@10
    assert s["cr"] == {"pass@1": 1.0, "pass@10": 1.0}
    assert s["fast_1"] == pytest.approx(1 / 3, abs=1e-6) and s["speedup_geomean"] == 2.0
    full = summarize(a + b + c, "m", "t", 10)
    assert full["samples_per_task"] == 10
    assert full["levels"]["level1"]["er"] == {"pass@1": 0.15, "pass@10": 0.5}
    assert full["levels"]["level2"]["er"] == {"pass@1": 1.0, "pass@10": 1.0}
    assert full["levels"]["level2"]["fast_1"] == 0.0                          # 1.0x is not faster than 1.0x
    assert full["levels"]["level3"] is None                                   # not selected: null, not zeros
    assert full["levels"]["mean"]["er"]["pass@1"] == pytest.approx((0.3 + 0 + 1) / 3, abs=1e-6)
    assert full["statuses"] == {s.value: {"passed": 13, "wrong": 17}.get(s.value, 0) for s in Status}
    assert sum(full["taxonomy"].values()) == 0 and set(full["taxonomy"]) == {c.value for c in ErrorCategory}


def test_fast_p_threshold():
    results = [built("a", 0, True, speedup=1.2), built("b", 0, True, speedup=0.9)]
    assert level_summary(results, 1, fast_p=1.0)["fast_1"] == 0.5
    assert level_summary(results, 1, fast_p=1.2)["fast_1_2"] == 0.0
    assert level_summary(results, 1, fast_p=0.5)["fast_0_5"] == 1.0

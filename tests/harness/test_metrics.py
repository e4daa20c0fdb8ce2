import math

import pytest

from npukernelbench.metrics import label_agreement, level_summary, pass_at_k, summarize
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
    assert label_agreement([a, b]) == {"labelled": 2, "agree": 1, "rate": 0.5}
    assert label_agreement([]) is None

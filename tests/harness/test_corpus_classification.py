"""diagnostics.classify on the real ascendc-sim compiler output of the simulator's negative corpus
(tests/sim_kernel/negative_corpus.py: labelled snippets of typical model mistakes, paper Table 7 style).

Every snippet must be classified as labelled (38/38 when written): a looser threshold let a deleted
rule pass unnoticed. A new corpus entry the classifier gets wrong needs a classifier fix (or a
corrected label); every miss is printed so a regression is easy to read.
"""

from __future__ import annotations

import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from npukernelbench.diagnostics import classify, parse

SIM_TESTS = Path(__file__).resolve().parents[1] / "sim_kernel"
THRESHOLD = 1.0


@pytest.fixture(scope="module")
def corpus_logs(tmp_path_factory) -> list[tuple[str, str, str]]:
    if shutil.which("g++") is None:
        pytest.skip("g++ is required to compile the negative corpus")
    if str(SIM_TESTS) not in sys.path:
        sys.path.insert(0, str(SIM_TESTS))
    from negative_corpus import CASES
    from simkit import syntax_check

    root = tmp_path_factory.mktemp("corpus")

    def compile_one(case):
        res = syntax_check(case.source(), root / case.id)
        assert not res.ok, f"{case.id} compiled but must fail"
        return case.id, case.klass, res.stderr

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(compile_one, CASES))


def test_negative_corpus_agreement(corpus_logs) -> None:
    misses = []
    for case_id, label, log in corpus_logs:
        got = classify(log).value
        if got != label:
            first = parse(log)[0].message if parse(log) else log[:200]
            misses.append(f"{case_id}: labelled {label}, classified {got}: {first[:160]}")
    agree = len(corpus_logs) - len(misses)
    rate = agree / len(corpus_logs)
    print(f"negative corpus classification agreement: {agree}/{len(corpus_logs)} = {100 * rate:.1f}%")
    assert rate >= THRESHOLD, "\n".join(misses)


def test_every_class_is_recognised(corpus_logs) -> None:
    """Each taxonomy class is produced for at least one snippet labelled with it."""
    hits = {label for _, label, log in corpus_logs if classify(log).value == label}
    assert hits == {label for _, label, _ in corpus_logs}

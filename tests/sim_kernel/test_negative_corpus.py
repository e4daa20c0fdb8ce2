"""Every negative-corpus snippet fails to compile; the control snippet compiles."""

from __future__ import annotations

import pytest
from negative_corpus import CASES, POSITIVE
from simkit import syntax_check

TAXONOMY = {"api_signature", "dtype_conversion", "scope_lifetime", "memory_object", "syntax_structure",
            "macro_preprocessing"}


def test_control_snippet_compiles(tmp_path, sim_cache) -> None:
    res = syntax_check(POSITIVE.source(), tmp_path)
    assert res.ok, res.stderr[-4000:]


def test_corpus_is_well_formed() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert all(c.klass in TAXONOMY for c in CASES)
    assert {c.klass for c in CASES} == TAXONOMY


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_snippet_fails_to_compile(tmp_path, sim_cache, case) -> None:
    res = syntax_check(case.source(), tmp_path)
    assert not res.ok, f"{case.id} compiled but must fail ({case.klass})"
    assert "error" in res.stderr

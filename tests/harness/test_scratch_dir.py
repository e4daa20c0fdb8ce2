"""The dynamic-shape search keeps hypothesis's files in the run's scratch directory while it runs and
leaves no (empty) scratch directory behind in the run directory."""

from __future__ import annotations

from hypothesis import strategies as st

from npukernelbench.shapes import ShapeCase, search


def _cases() -> st.SearchStrategy[ShapeCase]:
    return st.integers(1, 64).map(lambda n: ShapeCase(shapes={"x": [n]}, types={}, attrs={}, label="dynamic",
                                                       kind="dynamic"))


def test_search_leaves_no_scratch_directory(tmp_path) -> None:
    scratch = tmp_path / "run" / "scratch"
    during: list[bool] = []

    def check(case: ShapeCase) -> str | None:
        during.append(any(scratch.iterdir()))             # hypothesis's home is inside the scratch directory
        return "too big" if case.shapes["x"][0] > 40 else None

    outcome = search(_cases(), check, examples=30, seed=3, storage_dir=scratch)
    assert during and all(during)
    assert outcome.failure is not None and outcome.failure.shapes["x"] == [41]     # shrunk to the minimal case
    assert not scratch.exists() and (tmp_path / "run").is_dir()


def test_a_scratch_directory_in_use_stays(tmp_path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "other-worker").mkdir()
    search(_cases(), lambda case: None, examples=3, seed=0, storage_dir=scratch)
    assert [p.name for p in scratch.iterdir()] == ["other-worker"]

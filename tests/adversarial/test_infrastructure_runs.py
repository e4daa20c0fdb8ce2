"""A confinement wrapper that fails, end to end as a user sees it: ``pytest`` on the add_custom case
with a ``unshare`` of ours first on PATH (``NPUKB_CONFINEMENT=netns+rlimits``). The wrapper passes
the probe and every command through (without namespaces, so the test needs none), except the
commands that contain a given text, for which it fails the way util-linux's unshare does.

A persisting failure is an item error naming the cause, counted nowhere, cached nowhere; a
transient one is retried and the sample counts normally."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from plugin_runs import clean_error, copy_add_custom, pytest_run

from npukernelbench.toolchains.ascendc_sim.build_cache import default_root

FAKE_UNSHARE = r"""#!/bin/sh
case "$*" in
  *'{match}'*)
    if [ -n '{once}' ] && [ -e '{once}' ]; then :; else
      [ -n '{once}' ] && : > '{once}'
      echo "unshare: simulated wrapper failure" >&2
      exit 1
    fi ;;
esac
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
exec "$@"
"""


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory) -> Path:
    """A private cache seeded with the machine's runtime objects and precompiled headers, if any
    (they do not depend on the confinement), so the runs below only build the case itself. Files are
    hard-linked where the file system allows (the cache writes by rename, never in place): a copy of
    every precompiled header per test would take over a gigabyte of disk each."""
    cache = tmp_path_factory.mktemp("wrapper-cache")
    for part in ("runtime", "pch"):
        if (default_root() / part).is_dir():
            _link_tree(default_root() / part, cache / part)
    return cache


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _link_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.lock"), copy_function=_link_or_copy,
                    dirs_exist_ok=True)


def _wrapper(tmp_path: Path, match: str, once: bool) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "unshare"
    marker = tmp_path / "failed-once" if once else ""
    script.write_text(FAKE_UNSHARE.format(match=match, once=marker))
    script.chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "NPUKB_CONFINEMENT": "netns+rlimits"}


def _builds(cache: Path) -> list[str]:
    """The cached builds (not the host descriptions a build publishes once its host step succeeded)."""
    return sorted(p.parent.name for p in (cache / "builds").glob("*/*/build.json")
                  if "describe" not in json.loads(p.read_text()))


@pytest.mark.parametrize("match", ["op_kernel/add_custom.cpp", "/launcher run"], ids=["build", "run"])
def test_failing_wrapper_is_an_item_error_counted_nowhere(tmp_path, warm_cache, match) -> None:
    cache = tmp_path / "cache"
    _link_tree(warm_cache, cache)
    copy_add_custom(tmp_path / "cases")
    before = _builds(cache)
    proc = pytest_run(tmp_path, "cases", "--npukb-out=out", NPUKB_CACHE_DIR=str(cache),
                      **_wrapper(tmp_path, match, once=False))
    out = clean_error(proc, "ERROR at setup of level1/math/add_custom[s0]",
                      "infrastructure failure (not the kernel's fault, not counted)",
                      "unshare: simulated wrapper failure", "after one retry",
                      "confinement of candidate builds and runs: netns+rlimits")
    assert proc.returncode == 1, out[-3000:]
    assert "build_error" not in out and "runtime_error" not in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert [f["task"] for f in summary["infrastructure_failures"]] == ["level1/math/add_custom"]
    assert all(level is None for level in summary["levels"].values())        # no outcome, no pass@k
    assert sum(summary["statuses"].values()) == 0 and sum(summary["taxonomy"].values()) == 0
    results = tmp_path / "out" / "results.jsonl"
    assert not results.exists() or results.read_text() == ""
    if match == "op_kernel/add_custom.cpp":
        assert _builds(cache) == before, "a build that failed in the wrapper was cached"


def test_transient_wrapper_failure_is_retried_and_counts(tmp_path, warm_cache) -> None:
    cache = tmp_path / "cache"
    _link_tree(warm_cache, cache)
    copy_add_custom(tmp_path / "cases")
    proc = pytest_run(tmp_path, "cases", "--npukb-out=out", NPUKB_CACHE_DIR=str(cache),
                      **_wrapper(tmp_path, "op_kernel/add_custom.cpp", once=True))
    clean_error(proc, "1 passed")
    assert proc.returncode == 0 and (tmp_path / "failed-once").exists(), proc.stdout[-3000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["infrastructure_failures"] == []
    assert summary["levels"]["level1"]["er"] == {"pass@1": 1.0}

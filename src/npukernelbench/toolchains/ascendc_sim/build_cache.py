"""Content-addressed store of ascendc-sim builds, one folder per build key.

A build is made in a private temporary folder under the cache root and published with one atomic
``rename``; a concurrent worker that built the same key first wins and the loser's folder is
discarded, so pytest-xdist workers can share one cache. Builds that failed with a genuine compiler
diagnostic are stored too (their ``build.json`` keeps the diagnostics), so an identical broken
candidate is not recompiled; nothing that is not determined by the sources is stored (see
``builder``).

Layout under the root: ``builds/`` (one folder per build key), ``runtime/`` (the simulator's compiled
runtime objects per compiler), ``pch/`` (precompiled headers), ``tmp/`` (builds and runs in
progress). ``npukb cache info`` and ``npukb cache clear`` report on and empty these (the completion
cache may share the root; ``npukb cache clear --completions`` empties it too).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORD = "build.json"
PARTS = ("builds", "runtime", "pch", "tmp")


@dataclass(frozen=True)
class CacheInfo:
    root: Path
    builds_ok: int
    builds_failed: int
    runtime_sets: int
    headers: int                 # precompiled headers
    headers_failed: int
    in_progress: int             # folders under tmp/ (builds or runs going on, or left by a killed run)
    size_bytes: int
    host_descriptions: int = 0   # published host steps (describe(), and the host half of a build)

    def lines(self) -> list[str]:
        return [f"build cache: {self.root}",
                f"  builds: {self.builds_ok} successful, {self.builds_failed} with compiler diagnostics",
                f"  host descriptions (host steps reused by builds of the same op_host sources): "
                f"{self.host_descriptions}",
                f"  runtime objects: {self.runtime_sets} compiler/simulator version(s)",
                f"  precompiled headers: {self.headers} ({self.headers_failed} that failed to build)",
                f"  in progress or left by killed runs: {self.in_progress}",
                f"  size: {self.size_bytes / (1 << 20):.1f} MiB"]


def _size(path: Path) -> int:
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def default_root() -> Path:
    env = os.environ.get("NPUKB_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "npukernelbench" / "ascendc-sim"


@dataclass(frozen=True)
class BuildCache:
    root: Path

    def entry(self, key: str) -> Path:
        return self.root / "builds" / key[:2] / key

    def load(self, key: str) -> dict[str, Any] | None:
        """The record of a published build, or None."""
        try:
            return json.loads((self.entry(key) / RECORD).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def scratch(self, prefix: str) -> Path:
        """A private folder on the cache's file system (so that publish can rename it)."""
        tmp = self.root / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=prefix, dir=tmp))

    def info(self) -> CacheInfo:
        ok = failed = described = 0
        for record in (self.root / "builds").glob(f"*/*/{RECORD}"):
            try:
                data = json.loads(record.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            if isinstance(data, dict) and "describe" in data:       # a host step, not a build
                described += 1
                continue
            built = isinstance(data, dict) and bool(data.get("ok"))
            ok += built
            failed += not built
        pch = [p for p in (self.root / "pch").glob("*") if p.is_dir()]
        runtime = [p for p in (self.root / "runtime").glob("*") if p.is_dir()]
        tmp = [p for p in (self.root / "tmp").glob("*") if p.is_dir()]
        return CacheInfo(root=self.root, builds_ok=ok, builds_failed=failed, runtime_sets=len(runtime),
                         headers=sum(not (p / "FAILED").exists() for p in pch),
                         headers_failed=sum((p / "FAILED").exists() for p in pch), in_progress=len(tmp),
                         size_bytes=sum(_size(self.root / part) for part in PARTS), host_descriptions=described)

    def clear(self) -> int:
        """Delete every build, runtime object, precompiled header and temporary folder; returns the
        bytes freed. (A run going on meanwhile sees its artifacts vanish: an infrastructure failure,
        retried once, which rebuilds them.)"""
        freed = 0
        for part in PARTS:
            folder = self.root / part
            if folder.exists():
                freed += _size(folder)
                shutil.rmtree(folder, ignore_errors=True)
        return freed

    def publish(self, key: str, folder: Path, record: dict[str, Any]) -> Path:
        """Write ``record`` into ``folder`` and move it to the key's place; returns the final folder
        (the other worker's when it won the race)."""
        (folder / RECORD).write_text(json.dumps(record, indent=1), encoding="utf-8")
        target = self.entry(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(folder, target)
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)
            if self.load(key) is None:
                raise
        return target

"""Content-addressed store of ascendc-sim builds, one folder per build key.

A build is made in a private temporary folder under the cache root and published with one atomic
``rename``; a concurrent worker that built the same key first wins and the loser's folder is
discarded, so pytest-xdist workers can share one cache. Failed builds are stored too (their
``build.json`` keeps the diagnostics), so an identical broken candidate is not recompiled.
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

"""Repository conftest: makes ``pytest benchmark_cases`` work from a checkout, installed or not."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

_SRC = Path(__file__).resolve().parent / "src"


def _plugin_installed() -> bool:
    try:
        return any(ep.name == "npukernelbench" for ep in metadata.entry_points(group="pytest11"))
    except Exception:
        return False


if _plugin_installed():
    pytest_plugins: list[str] = []
else:
    if str(_SRC) not in sys.path:
        sys.path.insert(0, str(_SRC))
    pytest_plugins = ["npukernelbench.plugin"]

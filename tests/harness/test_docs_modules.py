"""docs/architecture.md and docs/extending.md name only modules that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "npukernelbench"
FOLDERS = (PACKAGE, PACKAGE / "generators", PACKAGE / "toolchains", PACKAGE / "toolchains" / "ascendc_sim",
           PACKAGE / "public", ROOT)


@pytest.mark.parametrize("doc", ["architecture.md", "extending.md"])
def test_named_modules_exist(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+\.py)`", text))
    assert len(named) >= 3
    missing = sorted(n for n in named if not any((folder / n).is_file() for folder in FOLDERS))
    assert missing == []
    dotted = set(re.findall(r"`(npukernelbench(?:\.\w+)+)`", text))
    missing = sorted(d for d in dotted if not any(
        (ROOT / "src" / Path(*d.split(".")[:i])).with_suffix(".py").is_file()
        or (ROOT / "src" / Path(*d.split(".")[:i]) / "__init__.py").is_file()
        for i in range(len(d.split(".")), 1, -1) if i == len(d.split(".")) or i == len(d.split(".")) - 1))
    assert missing == []

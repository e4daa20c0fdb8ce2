"""docs/architecture.md and docs/extending.md name only modules that exist, and docs/architecture.md
names every module of ``src/`` (each by its path: ``layouts/upstream/checker.py``, not ``checker.py``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = SRC / "npukernelbench"
SIM = PACKAGE / "toolchains" / "ascendc_sim"
# where a named `x.py` may live (docs name modules relative to the package, their own folder, or src/)
FOLDERS = (PACKAGE, PACKAGE / "generators", PACKAGE / "toolchains", SIM, PACKAGE / "layouts",
           PACKAGE / "layouts" / "upstream", PACKAGE / "layouts" / "case_toml", SRC, ROOT)
# what a name must be relative to, to count as naming a module (so that a bare `checker.py` names the
# package's own checker.py only, not every layout's)
COVERING = (PACKAGE, SIM, SRC)


def named_paths(text: str) -> set[str]:
    return set(re.findall(r"`([\w/]+\.py)`", text))


def named_packages(text: str) -> set[str]:
    return set(re.findall(r"`(npukernelbench(?:\.\w+)+)`", text))


def missing_modules(text: str) -> list[str]:
    """Modules of src/ the text does not name: every module with code of its own (a package's
    ``__init__.py`` counts when it defines something, named as ``pkg/__init__.py`` or dotted)."""
    named = {(folder / n).resolve() for n in named_paths(text) for folder in COVERING}
    dotted = {SRC.joinpath(*d.split(".")) for d in named_packages(text)}
    missing = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "__init__.py":
            if not _defines_something(path) or path.parent in dotted or path.resolve() in named:
                continue
        elif path.resolve() in named or path.with_suffix("") in dotted:
            continue
        missing.append(path.relative_to(SRC).as_posix())
    return missing


def _defines_something(path: Path) -> bool:
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return any(isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Assign | ast.AnnAssign) for node in body)


@pytest.mark.parametrize("doc", ["architecture.md", "extending.md"])
def test_named_modules_exist(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    named = named_paths(text)
    assert len(named) >= 3
    missing = sorted(n for n in named if not any((folder / n).is_file() for folder in FOLDERS))
    assert missing == []
    dotted = named_packages(text)
    missing = sorted(d for d in dotted if not any(
        (ROOT / "src" / Path(*d.split(".")[:i])).with_suffix(".py").is_file()
        or (ROOT / "src" / Path(*d.split(".")[:i]) / "__init__.py").is_file()
        for i in range(len(d.split(".")), 1, -1) if i == len(d.split(".")) or i == len(d.split(".")) - 1))
    assert missing == []


def test_architecture_names_every_module() -> None:
    assert missing_modules((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")) == []


def test_the_coverage_check_can_fail() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    without = text.replace("`layouts/upstream/row_variants.py`", "row variants")
    assert missing_modules(without) == ["npukernelbench/layouts/upstream/row_variants.py"]
    assert "npukernelbench/layouts/__init__.py" in missing_modules(
        text.replace("`layouts/__init__.py`", "").replace("`npukernelbench.layouts`", ""))
    assert "npukernelbench/layouts/case_toml/checker.py" in missing_modules("`checker.py`")

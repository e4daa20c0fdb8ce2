"""Which tests check an API's documented semantics: ``@pytest.mark.api("Title", ...)`` markers.

Found with ``ast`` (nothing is imported or run): decorators of test functions and classes, and a
module-level ``pytestmark`` (one marker or a list). A marker inside ``pytest.param(..., marks=...)``
marks one case, not the API, and is not counted. A name is a page title of the reference
(``"Exp"``) or ``"Parent/Title"`` (``"LocalTensor/GetValue"``) where a title is shared by several pages.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class MarkerUse:
    name: str
    where: str             # file::test


@dataclass
class MarkerScan:
    uses: list[MarkerUse] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)     # files ast could not parse


def _api_names(node: ast.expr) -> list[str] | None:
    """The names of an ``api(...)`` marker expression (``pytest.mark.api(...)`` or ``mark.api(...)``)."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if not (isinstance(f, ast.Attribute) and f.attr == "api"):
        return None
    base = f.value
    if not ((isinstance(base, ast.Attribute) and base.attr == "mark") or (isinstance(base, ast.Name)
                                                                           and base.id == "mark")):
        return None
    return [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def scan(tests_dir: Path) -> MarkerScan:
    out = MarkerScan()
    for path in sorted(tests_dir.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            out.unreadable.append(str(path))
            continue
        rel = path.relative_to(tests_dir).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for dec in node.decorator_list:
                    for name in _api_names(dec) or []:
                        out.uses.append(MarkerUse(name, f"{rel}::{node.name}"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                    for t in node.targets):
                values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                for v in values:
                    for name in _api_names(v) or []:
                        out.uses.append(MarkerUse(name, f"{rel}::<module>"))
    return out

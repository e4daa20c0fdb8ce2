"""The Layout and Toolchain seams hold: generic code never imports a toolchain's own package (the
simulator's internals stay behind ``toolchains.base.Toolchain``), never compares a layout name
(what a layout decides goes through ``layouts.base.Layout``), and the evaluation's modules import one
another without cycles (imports inside functions count; ``if TYPE_CHECKING:`` blocks do not). Every
scan is shown to catch a violation."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
SIM_PACKAGE = "npukernelbench.toolchains.ascendc_sim"
SIM_DIR = SRC / "npukernelbench" / "toolchains" / "ascendc_sim"
LAYOUTS_DIR = SRC / "npukernelbench" / "layouts"
# the registered names, and the names the two layouts had before they were registered
LAYOUT_NAMES = frozenset({"case-toml", "upstream", "npukb", "npukernelbench"})


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def sim_imports(path: Path, text: str) -> list[str]:
    """``line: module`` for every import of the simulator's package (relative imports resolved)."""
    found = []
    package = _module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _module_name(path)
    for node in ast.walk(ast.parse(text)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        found += [f"{node.lineno}: {n}" for n in names if n == SIM_PACKAGE or n.startswith(SIM_PACKAGE + ".")]
    return sorted(set(found))


def layout_name_tests(text: str) -> list[str]:
    """``line: name`` for every comparison (==, !=, in, not in) with a layout name as a string literal."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Compare):
            continue
        for operand in (node.left, *node.comparators):
            values = operand.elts if isinstance(operand, ast.Tuple | ast.List | ast.Set) else [operand]
            found += [f"{node.lineno}: {v.value!r}" for v in values
                      if isinstance(v, ast.Constant) and v.value in LAYOUT_NAMES]
    return found


def _sources(outside: Path) -> list[Path]:
    return [p for p in sorted(SRC.rglob("*.py")) if not p.is_relative_to(outside)]


def test_nothing_outside_the_simulator_imports_it() -> None:
    leaks = {str(p.relative_to(SRC)): hits for p in _sources(SIM_DIR)
             if (hits := sim_imports(p, p.read_text(encoding="utf-8")))}
    assert leaks == {}


def test_no_layout_name_is_compared_outside_the_layouts() -> None:
    tests = {str(p.relative_to(SRC)): hits for p in _sources(LAYOUTS_DIR)
             if (hits := layout_name_tests(p.read_text(encoding="utf-8")))}
    assert tests == {}


@pytest.mark.parametrize("text", [
    "from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR\n",
    "import npukernelbench.toolchains.ascendc_sim.compiler as c\n",
    "def f():\n    from npukernelbench.toolchains import ascendc_sim\n",
    "from .ascendc_sim import builder\n",
])
def test_the_import_scan_catches_a_leak(text: str) -> None:
    assert sim_imports(SRC / "npukernelbench" / "toolchains" / "other.py", text)


@pytest.mark.parametrize("text", [
    'if spec.layout == "upstream":\n    pass\n',
    'ok = "case-toml" != spec.layout\n',
    'ok = spec.layout in ("npukb", "x")\n',
])
def test_the_layout_scan_catches_a_name_test(text: str) -> None:
    assert layout_name_tests(text)


def test_the_scans_pass_legitimate_code() -> None:
    assert sim_imports(SRC / "npukernelbench" / "x.py", "from npukernelbench.toolchains import get_toolchain\n") == []
    assert layout_name_tests('marker = "npukb"\nok = name.startswith("npukb")\n') == []


# the evaluation's modules: no import cycle may pass through one of them
EVALUATION = ("npukernelbench.evaluate", "npukernelbench.checker", "npukernelbench.cases", "npukernelbench.shapes",
              "npukernelbench.prompt", "npukernelbench.checks", "npukernelbench.preprocessed", "npukernelbench.layouts")


class _Imports(ast.NodeVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
                (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.names.update(a.name for a in node.names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self.names.add(node.module)
            self.names.update(f"{node.module}.{a.name}" for a in node.names)


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """module -> the modules (of ``sources``) it imports. A module's own enclosing packages are left out:
    Python imports a package before any of its modules, so ``from pkg import sibling`` inside ``pkg``
    never runs ``pkg/__init__`` in the middle of another import."""
    graph = {}
    for module, text in sources.items():
        visitor = _Imports()
        visitor.visit(ast.parse(text))
        targets = set()
        for name in visitor.names:
            while name and name not in sources:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _package_sources() -> dict[str, str]:
    return {_module_name(p): p.read_text(encoding="utf-8") for p in sorted((SRC / "npukernelbench").rglob("*.py"))}


def test_the_evaluations_modules_import_without_cycles() -> None:
    through = [c for c in cycles(import_graph(_package_sources())) if any(m.startswith(EVALUATION) for m in c)]
    assert through == []


def test_no_module_of_the_package_imports_one_that_imports_it_back() -> None:
    """No cycle anywhere in the package, also through imports inside functions (which keep the plugin
    light but still tie two modules together)."""
    assert cycles(import_graph(_package_sources())) == []


def test_the_cycle_check_catches_a_cycle() -> None:
    sources = _package_sources()
    sources["npukernelbench.checker"] += "\ndef f():\n    from npukernelbench import evaluate\n"
    assert ["npukernelbench.checker", "npukernelbench.evaluate"] in cycles(import_graph(sources))
    inner = _package_sources()
    inner["npukernelbench.toolchains.ascendc_sim.elf_object"] += (
        "\ndef g():\n    from npukernelbench.toolchains.ascendc_sim import toolchain\n")
    assert any("npukernelbench.toolchains.ascendc_sim.elf_object" in c for c in cycles(import_graph(inner)))
    typed = _package_sources()
    typed["npukernelbench.checker"] += "\nif TYPE_CHECKING:\n    from npukernelbench.evaluate import evaluate\n"
    assert not any("npukernelbench.checker" in c for c in cycles(import_graph(typed)))

"""The measurement: documented APIs x declaration probes x test markers -> one result per API.

An API is *declared fully* when every documented overload compiles against the simulator's headers
(and, where the overload has default arguments, compiles without them too); *partially* when its name
is declared but some overload does not compile; *missing* when no documented name is declared. A page
whose prototypes cannot be read is checked by the identifier in its title (``TCubeTiling结构体`` ->
``TCubeTiling``) and counts as missing when its title has none.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import codegen, doc_tree, markers, probes, prototypes
from .fixtures import (
    CLASS_FIXTURES,
    DTYPE_WORD,
    HOST_GROUPS,
    HOST_HEADERS,
    HOST_NAMESPACES,
    HOST_TITLE,
    KERNEL_HEADERS,
    KERNEL_NAMESPACES,
    TYPE_CANDIDATES,
    ClassFixture,
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")   # ASCII: "Tanh接口" is a group, not a class


@dataclass
class OverloadResult:
    label: str
    declared: bool
    error: str = ""


@dataclass
class ApiResult:
    page: doc_tree.ApiPage
    side: str                                  # kernel | host | both
    status: str = "missing"                    # full | partial | missing
    overloads: list[OverloadResult] = field(default_factory=list)
    names: dict[str, bool] = field(default_factory=dict)
    unparsed: bool = False
    tests: list[str] = field(default_factory=list)

    @property
    def tested(self) -> bool:
        return bool(self.tests)


@dataclass
class Measurement:
    results: list[ApiResult]
    out_of_scope: list[doc_tree.ApiPage]
    not_target: int                            # API pages documented only for other chips
    marker_warnings: list[str]
    probe_compiles: int = 0
    probe_seconds: float = 0.0


def page_side(page: doc_tree.ApiPage, text: str) -> str:
    # __aicore__ in a prototype, not in a call example: the Tiling pages show a kernel that uses the tiling
    if any("__aicore__" in block for block in prototypes.code_blocks(text)):
        return "kernel"
    if HOST_GROUPS.search("/".join(page.ancestors)) or HOST_TITLE.search(page.title):
        return "host"
    return "both"


def page_fixtures(page: doc_tree.ApiPage, side: str) -> tuple[ClassFixture, ...]:
    if page.parent in CLASS_FIXTURES:
        return CLASS_FIXTURES[page.parent]
    if _IDENT.match(page.parent):
        return (ClassFixture(page.parent, "AscendC" if side != "host" else ""),)
    return ()


_DTYPE_LINE = re.compile(r"数据类型|Atlas A[23]")


def candidate_types(text: str) -> tuple[str, ...]:
    """Types for template type parameters: those the page's prose names on its data-type lines (outside
    code blocks; ``bool`` only as a last resort), then the usual ones."""
    prose = re.sub(r"```.*?```", " ", prototypes.keep_target_regions(text), flags=re.S)
    seen: list[str] = []
    for line in prose.splitlines():
        if not _DTYPE_LINE.search(line):
            continue
        for m in DTYPE_WORD.finditer(line):
            if m.group(1) not in seen and m.group(1) != "bool":
                seen.append(m.group(1))
    return tuple(seen[:4]) + tuple(t for t in TYPE_CANDIDATES if t not in seen[:4])


_ONLY_WITH = re.compile(r"仅支持包含(\w+?)参数的接口")
_NOT_PROTO = re.compile(r"Atlas\s+(A[23])\s+训练系列产品[^\n]*?不支持(.+?)接口原型")


def _squeezed(text: str) -> str:
    return re.sub(r"[\s\\]", "", text)


def for_target(overloads: list[prototypes.Overload], text: str) -> list[prototypes.Overload]:
    """The overloads the page documents for 910B / A3: without those its support lines restrict to
    other chips (A2 and A3 both "仅支持包含FixpipeParamsV220参数的接口": an overload whose parameters
    take a sibling params struct instead is another chip's) or that a sentence says A2 and A3 do not
    support ("Atlas A2 ...不支持SetSelfDefineData(T dataPtr)接口原型", and the same for A3)."""
    m = doc_tree.SUPPORT_HEADING.search(text)
    lines = [ln for ln in (m.group(1).splitlines() if m else []) if doc_tree.TARGET_LINE.search(ln)]
    only = {hit for ln in lines for hit in _ONLY_WITH.findall(ln)}
    refused: dict[str, set[str]] = {}
    for chip, proto in _NOT_PROTO.findall(text):
        refused.setdefault(_squeezed(proto), set()).add(chip)
    refused_both = {proto for proto, chips in refused.items() if chips == {"A2", "A3"}}

    def kept(ov: prototypes.Overload) -> bool:
        types = " ".join(p.type for p in ov.params)
        if len(only) == 1:
            [struct] = only
            family = re.match(r"[A-Za-z]+Params", struct)
            if struct not in types and family and family.group(0) in types:
                return False
        return not any(_squeezed(ov.label).endswith(proto) for proto in refused_both)

    return [ov for ov in overloads if kept(ov)]


def title_name(title: str) -> str:
    name = re.sub(r"[（(].*?[)）]", "", title)
    name = re.sub(r"结构体|接口|构造函数|\s+Tiling$", "", name).strip()
    return name if _IDENT.match(name) else ""


@dataclass
class _Plan:
    result: ApiResult
    overload_checks: list[tuple[str, list[probes.Check]]] = field(default_factory=list)
    name_checks: dict[str, probes.Check] = field(default_factory=dict)


MAX_VARIANTS = 12


def _in_homes(name: str, fixtures: tuple[ClassFixture, ...]) -> tuple[ClassFixture, ...]:
    """Class ``name`` looked up in the namespaces of its page group's classes (a constructor page of a
    family, ``Matmul Tiling类构造函数``: its parameter types resolve there, not in every searched one)."""
    homes = dict.fromkeys(fx.home for fx in fixtures if fx.home)
    return tuple(ClassFixture(f"{home}::{name}", home) for home in homes)


def _variants(snippets: list[str], sides: tuple[str, ...]) -> list[probes.Variant]:
    return [probes.Variant(s, code) for code in snippets for s in sides][:MAX_VARIANTS]


def plan_page(page: doc_tree.ApiPage, text: str, tag_counter: list[int]) -> _Plan:
    side = page_side(page, text)
    sides = ("kernel", "host") if side == "both" else (side,)
    fixtures = page_fixtures(page, side)
    owner_hint = page.parent if _IDENT.match(page.parent) else (
        prototypes.ANY_CLASS if page.title.endswith("构造函数") else "")
    protos = prototypes.page_overloads(text, owner_hint)
    protos.overloads = for_target(protos.overloads, text)
    cands = candidate_types(text)
    plan = _Plan(ApiResult(page, side))
    home = "AscendC"

    def tag() -> int:
        tag_counter[0] += 1
        return tag_counter[0]

    names: dict[str, bool] = {}          # name -> is a macro
    for ov in protos.overloads:
        fx = fixtures
        if ov.owner and ov.kind in ("function", "operator") and ov.owner != page.parent:
            fx = CLASS_FIXTURES.get(ov.owner, (ClassFixture(ov.owner),))
        groups: list[list[str]]
        if ov.kind in ("function", "operator"):
            groups = codegen.function_snippets(ov, tag(), cands, fx, home)
            names.setdefault(ov.name if ov.kind == "function" else (ov.owner or page.parent or ov.name), False)
        elif ov.kind == "constructor":
            cfx = fixtures if ov.name == page.parent else CLASS_FIXTURES.get(ov.name) or _in_homes(ov.name, fixtures)
            groups = codegen.constructor_snippets(ov, tag(), cands, cfx, home)
            names.setdefault(ov.name, False)
        elif ov.kind == "macro":
            groups = [codegen.name_snippets(ov.name, tag(), (), macro=True)]
            names.setdefault(ov.name, True)
        elif ov.kind == "field":
            groups = [codegen.field_snippets(ov, tag(), CLASS_FIXTURES.get(ov.owner, ()), home)]
        elif ov.kind == "enumerator":
            groups = [codegen.enumerator_snippets(ov, tag(), home)]
        else:                                    # type, constant
            groups = [codegen.type_snippets(ov, tag(), CLASS_FIXTURES.get(ov.owner, fixtures) if ov.owner else ())]
            names.setdefault(ov.name, False)
        checks = [probes.Check(f"{page.path}#{ov.label}#{k}", _variants(g, sides)) for k, g in enumerate(groups)]
        plan.overload_checks.append((ov.label, checks))
    if not protos.overloads:
        plan.result.unparsed = True
        name = title_name(page.title)
        if name:
            names[name] = bool(re.fullmatch(r"[A-Z][A-Z0-9_]*", name))
            checks = [probes.Check(f"{page.path}#{name}", _variants(codegen.name_snippets(
                name, tag(), fixtures, macro=names[name]), sides))]
            plan.overload_checks.append((name, checks))
    for name, is_macro in names.items():
        if name.startswith("operator"):
            continue
        plan.name_checks[name] = probes.Check(f"{page.path}#name:{name}", _variants(
            codegen.name_snippets(name, tag(), fixtures, macro=is_macro), sides))
    return plan


def _marker_index(results: list[ApiResult], scan: markers.MarkerScan) -> list[str]:
    by_title: dict[str, list[ApiResult]] = {}
    by_qualified: dict[str, list[ApiResult]] = {}
    for r in results:
        by_title.setdefault(r.page.title, []).append(r)
        by_qualified.setdefault(r.page.qualified, []).append(r)
    warnings: list[str] = []
    for use in scan.uses:
        hits = by_qualified.get(use.name) or by_title.get(use.name) or []
        if "/" not in use.name and len(hits) > 1:
            parents = ", ".join(sorted(f"'{h.page.qualified}'" for h in hits))
            warnings.append(f"{use.where}: api marker '{use.name}' names {len(hits)} pages; write one of {parents}")
            continue
        if not hits:
            warnings.append(f"{use.where}: api marker '{use.name}' names no 910B/A3 API page of the reference")
            continue
        for h in hits:
            h.tests.append(use.where)
    for path in scan.unreadable:
        warnings.append(f"{path}: not valid Python, markers not read")
    return warnings


def measure(docs: Path, include_dir: Path, tests_dir: Path, compiler: str, on_round=None) -> Measurement:
    pages = doc_tree.load_pages(docs)
    in_scope = [p for p in pages if p.support != "no" and not p.out_of_scope]
    outside = [p for p in pages if p.support != "no" and p.out_of_scope]
    not_target = sum(1 for p in pages if p.support == "no")
    counter = [0]
    plans = [plan_page(p, doc_tree.page_text(docs, p), counter) for p in in_scope]
    tc = probes.Toolchain(compiler, include_dir, probes.prelude(KERNEL_HEADERS, KERNEL_NAMESPACES),
                          probes.prelude(HOST_HEADERS, HOST_NAMESPACES))
    checks = [c for pl in plans for _, cs in pl.overload_checks for c in cs] + \
             [c for pl in plans for c in pl.name_checks.values()]
    probes.run(tc, checks, on_round)
    results: list[ApiResult] = []
    for pl in plans:
        r = pl.result
        r.names = {n: bool(c.ok) for n, c in pl.name_checks.items()}
        for label, cs in pl.overload_checks:
            ok = all(c.ok for c in cs)
            err = next((c.error for c in cs if not c.ok), "")
            r.overloads.append(OverloadResult(label, ok, err))
        declared = sum(o.declared for o in r.overloads)
        if r.overloads and declared == len(r.overloads):
            r.status = "full"
        elif declared or any(r.names.values()):
            r.status = "partial"
        else:
            r.status = "missing"
        results.append(r)
    warnings = _marker_index(results, markers.scan(tests_dir))
    return Measurement(results, outside, not_target, warnings, tc.compiles, tc.seconds)


def family_counts(results: list[ApiResult]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for r in results:
        c = out.setdefault(r.page.family, Counter())
        c["documented"] += 1
        c[r.status] += 1
        c["tested"] += r.tested
    return out

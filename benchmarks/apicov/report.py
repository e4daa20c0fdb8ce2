"""Tables, per-API lists, JSON and the Markdown section of docs/simulator.md."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from . import doc_tree, prototypes
from .coverage import ApiResult, Measurement, family_counts

BEGIN = "<!-- api-coverage:begin -->"
END = "<!-- api-coverage:end -->"
_WORD = re.compile(r"[A-Za-z_]\w*")
_SOURCE_SUFFIXES = {".cpp", ".cc", ".h", ".hpp", ".cce", ".asc"}


@dataclass(frozen=True)
class OutOfScopeRow:
    label: str
    reason: str
    documented: int
    corpus_files: int | None      # corpus source files naming one of its APIs (None: no corpus read)
    corpus_names: tuple[str, ...]


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.0f}%" if b else "-"


def rows(m: Measurement) -> list[tuple[str, Counter]]:
    """Per family, in the reference's tree order."""
    counts = family_counts(m.results)
    order = {f: k for k, f in reversed(list(enumerate(r.page.family for r in m.results)))}
    return sorted(counts.items(), key=lambda item: order[item[0]])


def totals(m: Measurement) -> Counter:
    t: Counter = Counter()
    for _f, c in rows(m):
        t.update(c)
    return t


_DEFINED = re.compile(
    r"::\s*([A-Za-z_]\w*)\s*\(|"                                     # X::Name( -- an out-of-class member
    r"\b(?:void|bool|auto|float|double|int|unsigned|u?int\d+_t|size_t|[A-Z]\w*(?:<[^<>;]*>)?)\s*[*&]*\s+"
    r"([A-Za-z_]\w*)\s*\(")                                             # Type Name( -- a declaration
_OPERATOR_DIRS = ("op_kernel", "op_host")


def corpus_identifiers(dirs: list[Path]) -> list[set[str]]:
    """Per operator source file of the corpora (under ``op_kernel/`` or ``op_host/``): the identifiers
    its code uses, comments and strings left out, less the names it declares or defines itself (a user
    class's ``Finalize`` is not HCCL's)."""
    from .prototypes import strip_comments
    files: list[set[str]] = []
    for d in dirs:
        for p in sorted(d.rglob("*")):
            if p.suffix not in _SOURCE_SUFFIXES or not p.is_file() or not set(_OPERATOR_DIRS) & set(p.parts):
                continue
            try:
                text = strip_comments(p.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
            own = {a or b for a, b in _DEFINED.findall(text)}
            files.append(set(_WORD.findall(text)) - own)
    return files


def out_of_scope_rows(m: Measurement, docs: Path, corpus: list[Path]) -> list[OutOfScopeRow]:
    in_scope_names = {ov.name for r in m.results for ov in prototypes.page_overloads(
        doc_tree.page_text(docs, r.page)).overloads}
    files = corpus_identifiers(corpus) if corpus else None
    out: list[OutOfScopeRow] = []
    for prefix, label, reason in doc_tree.OUT_OF_SCOPE:
        pages = [p for p in m.out_of_scope if "/".join(p.ancestors).startswith(prefix)]
        names: set[str] = set()
        for p in pages:
            names |= {ov.name for ov in prototypes.page_overloads(doc_tree.page_text(docs, p)).overloads
                      if ov.kind in ("function", "macro", "type", "constructor")}
        names -= in_scope_names
        used: Counter = Counter()
        n_files = None
        if files is not None:
            n_files = 0
            for ids in files:
                hit = names & ids
                if hit:
                    n_files += 1
                    used.update(hit)
        out.append(OutOfScopeRow(label, reason, len(pages), n_files, tuple(n for n, _ in used.most_common(5))))
    return out


def table(m: Measurement, oos: list[OutOfScopeRow]) -> str:
    head = (f"{'family':58s} {'docs':>4s} {'full':>4s} {'part':>4s} {'miss':>4s} {'decl%':>6s} "
            f"{'tested':>6s} {'test%':>6s}")
    lines = [head, "-" * len(head)]
    for fam, c in rows(m):
        name = f"{doc_tree.label_of(fam)} ({fam})"
        lines.append(f"{name[:58]:58s} {c['documented']:4d} {c['full']:4d} {c['partial']:4d} {c['missing']:4d} "
                     f"{pct(c['full'], c['documented']):>6s} {c['tested']:6d} {pct(c['tested'], c['documented']):>6s}")
    t = totals(m)
    lines.append("-" * len(head))
    lines.append(f"{'total (in scope)':58s} {t['documented']:4d} {t['full']:4d} {t['partial']:4d} {t['missing']:4d} "
                 f"{pct(t['full'], t['documented']):>6s} {t['tested']:6d} {pct(t['tested'], t['documented']):>6s}")
    lines.append("")
    lines.append("outside the simulator's scope (documented for 910B/A3, not counted above):")
    for r in oos:
        use = "corpus not read" if r.corpus_files is None else f"{r.corpus_files} corpus files use its names" + (
            f" ({', '.join(r.corpus_names)})" if r.corpus_names else "")
        lines.append(f"  {r.label}: {r.documented} APIs; {use}; {r.reason}")
    lines.append(f"API pages documented only for other chips (not counted): {m.not_target}")
    return "\n".join(lines)


def listing(m: Measurement, what: str, family: str | None) -> str:
    out: list[str] = []
    for r in m.results:
        if family and family not in (r.page.family, doc_tree.label_of(r.page.family)) and \
                not r.page.family.startswith(family):
            continue
        if what == "untested":
            if r.tested:
                continue
        elif r.status != what:
            continue
        out.append(f"{r.page.family} | {r.page.qualified} | {r.status} ({r.side})"
                   + (" | tested" if r.tested else ""))
        if what == "partial":
            for o in r.overloads:
                if not o.declared:
                    out.append(f"    not declared: {o.label[:160]}")
                    if o.error:
                        out.append(f"        g++: {o.error[:200]}")
    return "\n".join(out)


def result_json(r: ApiResult) -> dict:
    return {
        "title": r.page.title, "qualified": r.page.qualified, "path": r.page.path, "family": r.page.family,
        "family_label": doc_tree.label_of(r.page.family), "support": r.page.support, "side": r.side,
        "status": r.status, "unparsed": r.unparsed, "names": r.names, "tests": r.tests,
        "overloads": [{"prototype": o.label, "declared": o.declared, "error": o.error} for o in r.overloads],
    }


def to_json(m: Measurement, oos: list[OutOfScopeRow], seconds: float) -> dict:
    t = totals(m)
    return {
        "totals": dict(t), "declared_pct": 100.0 * t["full"] / t["documented"] if t["documented"] else 0.0,
        "tested_pct": 100.0 * t["tested"] / t["documented"] if t["documented"] else 0.0,
        "families": [{"family": f, "label": doc_tree.label_of(f), **dict(c)} for f, c in rows(m)],
        "out_of_scope": [r.__dict__ for r in oos], "not_target_pages": m.not_target,
        "marker_warnings": m.marker_warnings, "apis": [result_json(r) for r in m.results],
        "probe_compiles": m.probe_compiles, "seconds": round(seconds, 1),
    }


def markdown(m: Measurement, oos: list[OutOfScopeRow]) -> str:
    lines = ["| family | documented | declared fully | partially | missing | declared % | tested | tested % |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for fam, c in rows(m):
        lines.append(f"| {doc_tree.label_of(fam)} (`{fam}`) | {c['documented']} | {c['full']} | {c['partial']} | "
                     f"{c['missing']} | {pct(c['full'], c['documented'])} | {c['tested']} | "
                     f"{pct(c['tested'], c['documented'])} |")
    t = totals(m)
    lines.append(f"| **total** | **{t['documented']}** | **{t['full']}** | {t['partial']} | {t['missing']} | "
                 f"**{pct(t['full'], t['documented'])}** | **{t['tested']}** | "
                 f"**{pct(t['tested'], t['documented'])}** |")
    lines += ["", "Outside the simulator's scope (documented for 910B/A3, not counted above):", "",
              "| family | APIs | corpus operator files naming one of its APIs | why |", "|---|---:|---:|---|"]
    for r in oos:
        used = "-" if r.corpus_files is None else str(r.corpus_files) + (
            f" ({', '.join(r.corpus_names)})" if r.corpus_names else "")
        lines.append(f"| {r.label} | {r.documented} | {used} | {r.reason} |")
    return "\n".join(lines) + "\n"


def write_markdown(doc: Path, block: str) -> None:
    text = doc.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise ValueError(f"{doc} has no {BEGIN} ... {END} markers")
    a = text.index(BEGIN) + len(BEGIN)
    b = text.index(END)
    doc.write_text(text[:a] + "\n" + block + text[b:], encoding="utf-8")

"""Names that are not an example's own: those the reference documents and those the simulator's headers define.

A call example that compiles only up to names it never declares (``srcLocal``, ``tilingData``, ``context``)
is a *fragment*; but a name the reference documents as an API, or one our headers define, is not the
example's own, so "'X' was not declared" for it is a gap of the simulator (:mod:`examples`).

* Documented: the ASCII identifiers of every API page title (``SetFlag/WaitFlag`` -> both) and the names
  the in-scope pages' prototypes declare (functions, types, macros, enumerators, constants; data members
  are reached through their struct and are not listed).
* Defined by the headers: read from the header text, not compiled: macro names and, at namespace scope
  (class and function bodies left out: a member or a local is not reachable unqualified), the names after
  ``class``/``struct``/``union``/``enum``/``concept``, ``using X =`` aliases, ``typedef``
  names, declared functions (``Type name(``), ``constexpr`` and ``static const`` constants, and
  enumerators. A parameter's name (of a function or a template) and a called name are not definitions.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import doc_tree, prototypes

_ASCII_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_SUFFIXES = {".h", ".hpp", ".inc", ".hh"}
_DEFINING = re.compile(
    r"#\s*define\s+(\w+)|"
    r"\b(?:class|struct|union|enum(?:\s+class|\s+struct)?|concept)\s+(?:alignas\s*\([^)]*\)\s*)?(\w+)|"
    r"\busing\s+(\w+)\s*=|"
    r"\btypedef\b[^;{}]*?(\w+)\s*(?:\[[^\]]*\])?\s*;|"
    r"(?<![\w:])(?!(?:return|new|else|case|throw|delete|sizeof|co_return)\b)[A-Za-z_]\w*(?:<[^;(){}]*>)?[*&\s]+"
    r"[*&]*(\w+)\s*\(|"
    r"\b(?:constexpr|static\s+const)\b[^;=(){}]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*[={]")
_TEMPLATE_LIST = re.compile(r"\btemplate\s*<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>")
_ENUM_HEAD = re.compile(r"\benum(?:\s+class|\s+struct)?(?:\s+\w+)?\s*(?::[\w:\s]+)?$")
_NAMESPACE_HEAD = re.compile(r"(?:\bnamespace(?:\s+[\w:]+)?|\bextern\s*\"\")\s*$")
_ENUMERATOR = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)")
_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "static_assert",
             "catch", "noexcept", "defined", "operator"}


def documented_names(pages: list[doc_tree.ApiPage], in_scope_texts: list[str]) -> set[str]:
    """Identifiers of the API titles of ``pages`` and the names the prototypes of ``in_scope_texts`` declare."""
    names = {m.group(0) for p in pages for m in _ASCII_IDENT.finditer(p.title) if len(m.group(0)) > 1}
    for text in in_scope_texts:
        names |= {ov.name for ov in prototypes.page_overloads(text).overloads if ov.kind != "field"}
    return names


def namespace_scope(text: str) -> tuple[str, list[str]]:
    """The parts of ``text`` at namespace scope (class and function bodies blanked: their names are not
    reachable unqualified), and the bodies of the enums declared there."""
    out: list[str] = []
    enums: list[str] = []
    stack: list[tuple[bool, int, bool]] = []          # (a namespace's brace, where it opened, an enum's)
    last = 0                                           # where the current declaration started
    for i, c in enumerate(text):
        outer = all(ns for ns, _, _ in stack)
        if c == "{":
            head = text[last:i]
            stack.append((bool(_NAMESPACE_HEAD.search(head)), i, outer and bool(_ENUM_HEAD.search(head.strip()))))
            if outer:
                out.append(c)
            last = i + 1
        elif c == "}":
            if stack:
                _ns, start, is_enum = stack.pop()
                if is_enum:
                    enums.append(text[start + 1:i])
            if all(ns for ns, _, _ in stack):
                out.append(c)
            last = i + 1
        else:
            if outer:
                out.append(c)
            if c == ";":
                last = i + 1
    return "".join(out), enums


def header_names(include_dir: Path) -> set[str]:
    """The names the header files under ``include_dir`` define at namespace scope (module docstring)."""
    names: set[str] = set()
    for path in sorted(include_dir.rglob("*")):
        if path.suffix not in _HEADER_SUFFIXES or not path.is_file():
            continue
        text = prototypes.strip_comments(path.read_text(encoding="utf-8", errors="replace"))
        text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
        names.update(re.findall(r"#\s*define\s+(\w+)", text))
        outer, enums = namespace_scope(_TEMPLATE_LIST.sub("template<>", text))   # a template parameter is no name
        for m in _DEFINING.finditer(outer):
            names.update(g for g in m.groups() if g)
        for body in enums:
            names.update(_ENUMERATOR.findall(body))
    return names - _KEYWORDS

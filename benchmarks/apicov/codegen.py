"""C++ probe snippets for documented overloads (see ``probes``).

A function overload becomes a call in an unevaluated operand, with every documented template argument
given explicitly and one argument of each documented parameter type::

    namespace AscendC { namespace npukb_p12 { using namespace ::npukb_all;
    inline void npukb_probe() {
      using npukb_r = decltype(Add<half, true>(std::declval<const LocalTensor<half>&>(), ...)); }
    } }

Template parameters are replaced by concrete arguments (a candidate type for a type parameter, the
documented default, or a value-initialised value; a type pack is one candidate type, deduced, its
expansions written as that type); class template parameters used by member
prototypes by the class fixture's (``fixtures.CLASS_FIXTURES``). A member is called on an lvalue of
the fixture class (``const`` for a ``const`` member); a constructor is checked with
``std::is_constructible``; a macro with ``#ifdef``; a type, constant or name with a using-declaration;
a field with a member access; an enumerator by naming it; a conversion function by calling
``operator T()`` on the fixture. An overload with default arguments is also
checked without them.
"""

from __future__ import annotations

import itertools
import re

from .fixtures import PARAM_HINTS, TYPE_HINTS, ClassFixture
from .prototypes import Overload, Param, TParam

MAX_COMBOS = 6
_WORD = r"(?<![\w:]){}(?!\w)"
_PACK = r"(?<![\w:]){}(?!\w)((?:\s|&|\*|\bconst\b|\bvolatile\b)*)\.\.\."


def substitute(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each mapped name replaced. A template parameter pack takes one argument: its
    expansions (``Tps...``, ``const Tps&... params``) become that one type."""
    for name, value in mapping.items():
        if name:
            text = re.sub(_PACK.format(re.escape(name)), lambda m, v=value: v + m.group(1), text)
            text = re.sub(_WORD.format(re.escape(name)), lambda _m, v=value: v, text)
    return text


def _value_for(tp: TParam) -> str:
    t = tp.type.replace("const ", "").strip()
    if t in ("auto", "auto&"):
        return "0"
    if t.endswith("&"):
        # a const reference without a default: a value-initialised object of static storage (probes.prelude)
        return f"::npukb_ref<{t[:-1].strip()}>" if tp.type.strip().startswith("const ") else ""
    return f"{t}{{}}"


def _param_hint(name: str, params: tuple[Param, ...]) -> tuple[str, ...] | None:
    for p in params:
        if p.name in PARAM_HINTS and re.fullmatch(rf"(?:const\s*)?{re.escape(name)}\s*&?", p.type):
            return PARAM_HINTS[p.name]
    return None


def template_args(template: tuple[TParam, ...], cands: tuple[str, ...],
                  params: tuple[Param, ...] = ()) -> list[dict[str, str]]:
    """Assignments of concrete arguments to ``template``'s parameters, most likely first."""
    choices: list[tuple[str, ...]] = []
    names: list[str] = []
    for tp in template:
        if tp.pack and tp.kind != "type":
            continue
        names.append(tp.name)
        if tp.pack:                     # a type pack: one element, deduced (not written as an argument)
            choices.append(((_param_hint(tp.name, params) or TYPE_HINTS.get(tp.name, cands))[0],))
        elif tp.default:
            choices.append((tp.default,))
        elif tp.kind == "type":
            choices.append(_param_hint(tp.name, params) or TYPE_HINTS.get(tp.name, cands))
        elif tp.kind == "value":
            choices.append((_value_for(tp),))
        else:                           # a template template parameter: a hinted class template, or none
            choices.append(TYPE_HINTS.get(tp.name, ("",)))
    combos = sorted(itertools.product(*[range(len(c)) for c in choices]), key=lambda ix: (sum(ix), ix))
    out: list[dict[str, str]] = []
    for ix in combos[:MAX_COMBOS]:
        mapping: dict[str, str] = {}
        for name, options, k in zip(names, choices, ix, strict=True):
            mapping[name] = substitute(options[k], mapping)
        out.append(mapping)
    return out or [{}]


def _targs(template: tuple[TParam, ...], mapping: dict[str, str]) -> str | None:
    vals = [mapping.get(tp.name, "") for tp in template if not tp.pack]
    if any(v == "" for v in vals):
        return None
    return f"<{', '.join(vals)}>" if vals else ""


def _arg(p: Param, mapping: dict[str, str]) -> str:
    t = substitute(p.type, mapping)
    if t == "...":
        return ""
    if "..." in t:
        base = t.replace("...", "").strip()
        return f"std::declval<{base}>()..."
    if t.endswith("&&"):
        return f"std::declval<{t}>()"
    return f"std::declval<std::add_lvalue_reference_t<{t}>>()"


def _args(params: tuple[Param, ...], mapping: dict[str, str]) -> str:
    return ", ".join(a for a in (_arg(p, mapping) for p in params) if a)


def _wrap(home: str, body: str, tag: int) -> str:
    opened = "".join(f"namespace {p} {{ " for p in home.split("::")) if home else ""
    closed = "}" * (home.count("::") + 1) if home else ""
    return f"{opened}namespace npukb_p{tag} {{ using namespace ::npukb_all;\n{body}\n}} {closed}\n"


def _fn(stmt: str) -> str:
    return f"inline void npukb_probe() {{ {stmt} }}"


_BINARY_OPS = {"+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&", "|", "^", "<<", ">>", "&&", "||",
               "+=", "-=", "*=", "/=", "="}


def call_expr(ov: Overload, mapping: dict[str, str], obj: str | None, params: tuple[Param, ...]) -> str | None:
    """The documented use of ``ov`` as an expression; ``obj`` is the instance for a member."""
    targs = _targs(ov.template, mapping)
    if targs is None:
        return None
    args = _args(params, mapping)
    if ov.kind == "operator":
        op = ov.name.removeprefix("operator").strip()
        arglist = [a for a in (_arg(p, mapping) for p in params) if a]
        if obj is None:
            if len(arglist) == 2 and op in _BINARY_OPS:
                return f"({arglist[0]} {op} {arglist[1]})"
            return None
        if op == "[]":
            return f"{obj}[{args}]"
        if op == "()":
            return f"{obj}({args})"
        if re.match(r"[A-Za-z_]", op) and not arglist:      # a conversion function: operator value_type()
            return f"{obj}.operator {op}()"
        if op in _BINARY_OPS and len(arglist) == 1:
            return f"({obj} {op} {arglist[0]})"
        if not arglist:
            return f"({op}{obj})"
        return None
    if obj is not None:
        member = f"template {ov.name}{targs}" if targs else ov.name
        return f"{obj}.{member}({args})"
    return f"{ov.name}{targs}({args})"


def function_snippets(ov: Overload, tag: int, cands: tuple[str, ...], fixtures: tuple[ClassFixture, ...],
                      default_home: str) -> list[list[str]]:
    """Per check (all documented arguments; without defaulted ones), its snippet alternatives."""
    full = ov.params
    shortened = tuple(p for p in ov.params if not p.default)
    param_sets = [full] + ([shortened] if len(shortened) != len(full) and
                           all(not p.default for p in full[: len(shortened)]) else [])
    checks: list[list[str]] = []
    for params in param_sets:
        alts: list[str] = []
        for mapping in template_args(ov.template, cands, ov.params):
            for fx in fixtures:
                own = {k: v for k, v in fx.aliases.items() if k not in mapping}
                m2 = {**own, **mapping}
                obj = f"std::declval<{'const ' if ov.const else ''}{fx.type}&>()"
                expr = call_expr(ov, m2, obj, params)
                if expr:
                    alts.append(_wrap(fx.home, _fn(f"using npukb_r = decltype({expr});"), tag))
            expr = call_expr(ov, mapping, None, params)
            if expr:
                alts.append(_wrap(default_home, _fn(f"using npukb_r = decltype({expr});"), tag))
        checks.append(alts)
    return checks


def constructor_snippets(ov: Overload, tag: int, cands: tuple[str, ...], fixtures: tuple[ClassFixture, ...],
                         default_home: str) -> list[list[str]]:
    full = ov.params
    shortened = tuple(p for p in ov.params if not p.default)
    param_sets = [full] + ([shortened] if len(shortened) != len(full) else [])
    checks: list[list[str]] = []
    for params in param_sets:
        alts: list[str] = []
        if fixtures:
            for fx in fixtures:
                types = ", ".join(substitute(p.type, fx.aliases) for p in params if p.type != "...")
                sep = ", " if types else ""
                alts.append(_wrap(fx.home, _fn(f"static_assert(std::is_constructible<{fx.type}{sep}{types}>::value, "
                                               f"\"npukb\");"), tag))
        for mapping in template_args(ov.template, cands):
            targs = _targs(ov.template, mapping)
            if targs is None:
                continue
            types = ", ".join(substitute(p.type, mapping) for p in params if p.type != "...")
            sep = ", " if types else ""
            alts.append(_wrap(default_home, _fn(f"static_assert(std::is_constructible<{ov.name}{targs}{sep}{types}>"
                                                f"::value, \"npukb\");"), tag))
        checks.append(alts)
    return checks


def name_snippets(name: str, tag: int, fixtures: tuple[ClassFixture, ...], macro: bool = False) -> list[str]:
    """Alternatives that compile when ``name`` is declared at all (a macro, a namespace member, a member
    of the fixture class)."""
    alts: list[str] = []
    if macro:
        alts.append(f"#ifndef {name}\n#error npukb: {name} is not defined\n#endif\n")
    for fx in fixtures:
        alts.append(_wrap("", f"struct npukb_s : {fx.type} {{ using {fx.type}::{name}; }};", tag))
    alts.append(_wrap("", f"using ::npukb_all::{name};", tag))
    alts.append(_wrap("", f"using ::{name};", tag))
    return alts


def field_snippets(ov: Overload, tag: int, fixtures: tuple[ClassFixture, ...], default_home: str) -> list[str]:
    owners = [fx.type for fx in fixtures] + ([ov.owner] if ov.owner else [])
    return [_wrap(default_home, _fn(f"using npukb_r = decltype(std::declval<{o}&>().{ov.name});"), tag)
            for o in owners]


def enumerator_snippets(ov: Overload, tag: int, default_home: str) -> list[str]:
    return [_wrap(default_home, _fn(f"(void){ov.owner}::{ov.name};"), tag)]


def type_snippets(ov: Overload, tag: int, fixtures: tuple[ClassFixture, ...]) -> list[str]:
    alts = [_wrap("", f"using ::npukb_all::{ov.name};", tag), _wrap("", f"using ::{ov.name};", tag)]
    for fx in fixtures:
        alts.append(_wrap("", f"using npukb_t = {fx.type}::{ov.name};", tag))
    return alts

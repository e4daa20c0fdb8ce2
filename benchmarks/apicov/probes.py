"""Compile probes: does g++ accept a documented use of an API against the simulator's headers?

A :class:`Check` has one or more :class:`Variant` s (C++ snippets, each for the kernel or the host side);
it passes when one variant compiles. All variants of one round go into one translation unit per side,
compiled with ``-fsyntax-only``; each error is attributed to the probe whose lines it (or the
instantiation context g++ prints before it) points at. A round whose errors cannot all be attributed
is split in halves until they can. A check whose variant failed moves on to its next variant in the
next round. Nothing is run: the probes only need to compile.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

KERNEL_FLAGS = ("-std=c++17", "-fsyntax-only", "-fmax-errors=0", "-w", "-D__CCE_AICORE__=220", "-D__NPU_ARCH__=2201")
HOST_FLAGS = ("-std=c++17", "-fsyntax-only", "-fmax-errors=0", "-w")
_DIAG = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?:\d+:)?\s*(?P<msg>.*)$")
_CONTEXT = re.compile(r"^\s*(required from|required by|In instantiation of|in expansion of|In function|"
                      r"In member function|In constructor|In static member function)")


@dataclass(frozen=True)
class Variant:
    side: str              # kernel | host
    code: str              # self-contained C++ (namespace blocks, preprocessor lines)


@dataclass
class Check:
    key: str
    variants: list[Variant]
    ok: bool | None = None
    tried: int = 0
    error: str = ""        # the first error of the first variant (the most likely use)


@dataclass
class Toolchain:
    compiler: str
    include_dir: Path
    kernel_prelude: str
    host_prelude: str
    timeout_s: float = 600.0
    compiles: int = 0
    seconds: float = 0.0


class ProbeError(RuntimeError):
    """The probe machinery itself failed (no compiler, a header that does not compile on its own)."""


def prelude(headers: tuple[str, ...], namespaces: tuple[str, ...]) -> str:
    """The start of a probe TU: the side's headers (those present), <utility>/<type_traits>, and
    ``npukb_all``, a namespace through which every searched namespace is visible; the stand-ins probes
    use for user-defined types (``fixtures``)."""
    lines = ["#include <utility>", "#include <type_traits>", "#include <cstdint>"]
    for h in headers:
        lines += [f'#if __has_include("{h}")', f'#include "{h}"', "#endif"]
    for ns in namespaces:
        opened = "".join(f"namespace {part} {{ " for part in ns.split("::"))
        lines.append(opened + "}" * ns.count("::") + "}")
    lines.append("namespace npukb_all { " + " ".join(f"using namespace ::{ns};" for ns in namespaces) + " }")
    # an object of static storage for a `const X&` template parameter without a default (TransData's config)
    lines.append("template <typename T> inline constexpr T npukb_ref{};")
    # a user-defined message of the cube group API (64 bytes, `head` first) and a callback class template
    lines.append("template <typename H> struct alignas(64) npukb_cube_msg { H head; };")
    lines.append("template <class M, class T> struct npukb_cube_callback {};")
    # a user's custom TBufPool class: the members EXTERN_IMPL_BUFPOOL defines are its API (kernel side only)
    lines.append("#ifdef EXTERN_IMPL_BUFPOOL")
    lines.append("struct npukb_custom_bufpool {"
                 " EXTERN_IMPL_BUFPOOL(npukb_custom_bufpool, AscendC::TPosition::VECCALC, 16); };")
    lines.append("#endif")
    return "\n".join(lines) + "\n"


def _attribute(stderr: str, fname: str, ranges: list[tuple[int, int]]) -> tuple[dict[int, str], bool]:
    """The first error per probe index, and whether every error could be attributed."""
    errors, clean = attribute_all(stderr, fname, ranges)
    return {k: msgs[0][1] for k, msgs in errors.items()}, clean


def attribute_all(stderr: str, fname: str,
                  ranges: list[tuple[int, int]]) -> tuple[dict[int, list[tuple[int, str]]], bool]:
    """Every error per snippet index, as (line within the snippet it was placed by, message) in g++'s order,
    and whether every error could be attributed."""
    errors: dict[int, list[tuple[int, str]]] = {}
    context: list[int] = []
    clean = True
    nested = False           # an error inside a note ("In substitution of ...") explains the one before

    def owner(line: int) -> int | None:
        for k, (a, b) in enumerate(ranges):
            if a <= line <= b:
                return k
        return None

    pending = ""             # an error placed nowhere yet: a macro's expansion note after it may place it
    for raw in stderr.splitlines():
        if "In substitution of" in raw:
            nested = True
            continue
        m = _DIAG.match(raw)
        if not m:
            continue
        in_probe = Path(m.group("file")).name == fname
        line = int(m.group("line"))
        msg = m.group("msg")
        if pending and in_probe and msg.startswith("note: in expansion of macro") and owner(line) is not None:
            errors.setdefault(owner(line), []).append((line - ranges[owner(line)][0] + 1, pending))
            pending = ""
            continue
        if msg.startswith(("error:", "fatal error:")):
            if pending:
                clean = False
                pending = ""
            if nested:
                nested = False
                context = []
                continue
            cands = [x for x in ([line] if in_probe else []) + context[::-1]]
            at = next((x for x in cands if owner(x) is not None), None)
            if at is None:
                pending = msg.removeprefix("error:").strip()
            else:
                k = owner(at)
                errors.setdefault(k, []).append((at - ranges[k][0] + 1, msg.removeprefix("error:").strip()))
            context = []
        elif in_probe and (_CONTEXT.match(msg) or msg.startswith("required from here")):
            context.append(line)
    return errors, clean and not pending


def _compile(tc: Toolchain, side: str, snippets: list[str]) -> tuple[dict[int, str], bool, str]:
    errors, clean, stderr = compile_snippets(tc, side, snippets)
    return {k: msgs[0][1] for k, msgs in errors.items()}, clean, stderr


def compile_snippets(tc: Toolchain, side: str,
                     snippets: list[str]) -> tuple[dict[int, list[tuple[int, str]]], bool, str]:
    """One translation unit of the side's prelude and ``snippets`` (one after another), checked by g++: the
    errors per snippet index (:func:`attribute_all`), whether every error could be attributed, g++'s stderr."""
    head = tc.kernel_prelude if side == "kernel" else tc.host_prelude
    flags = KERNEL_FLAGS if side == "kernel" else HOST_FLAGS
    text = head
    ranges: list[tuple[int, int]] = []
    line = head.count("\n") + 1
    for k, code in enumerate(snippets):
        # one namespace per snippet: the checks of one overload share a tag
        body = code.replace("namespace npukb_p", f"namespace npukb_s{k}_p").rstrip("\n") + "\n"
        n = body.count("\n")
        ranges.append((line, line + n - 1))
        text += body
        line += n
    with tempfile.TemporaryDirectory(prefix="npukb-apicov-") as tmp:
        src = Path(tmp) / f"probe_{side}.cpp"
        src.write_text(text, encoding="utf-8")
        t0 = time.monotonic()
        try:
            out = subprocess.run([tc.compiler, *flags, f"-I{tc.include_dir}", str(src)], capture_output=True,
                                 text=True, timeout=tc.timeout_s)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ProbeError(f"{tc.compiler} failed to run on {len(snippets)} {side} probes: {exc}") from None
        tc.compiles += 1
        tc.seconds += time.monotonic() - t0
    if out.returncode == 0:
        return {}, True, ""
    errors, clean = attribute_all(out.stderr, src.name, ranges)
    if not errors and out.returncode != 0:
        clean = False
    return errors, clean, out.stderr


def _run_side(tc: Toolchain, side: str, items: list[tuple[Check, Variant]]) -> None:
    if not items:
        return
    errors, clean, stderr = _compile(tc, side, [v.code for _, v in items])
    if not clean:
        if len(items) == 1:
            if not errors:
                first = next((ln for ln in stderr.splitlines() if "error" in ln), stderr[:300])
                errors = {0: first.strip()}
        else:
            half = len(items) // 2
            _run_side(tc, side, items[:half])
            _run_side(tc, side, items[half:])
            return
    for k, (check, _v) in enumerate(items):
        if k in errors:
            check.error = check.error or errors[k]
            check.tried += 1
            if check.tried >= len(check.variants):
                check.ok = False
        else:
            check.ok = True


def run(tc: Toolchain, checks: list[Check], on_round=None) -> None:
    """Decide every check (``check.ok``), trying each one's variants in order, one round at a time."""
    if not tc.compiler:
        raise ProbeError("no C++ compiler: install g++")
    for side in ("kernel", "host"):
        _errors, _clean, stderr = _compile(tc, side, [])
        if stderr:
            raise ProbeError(f"the simulator's {side}-side headers do not compile on their own:\n{stderr[:2000]}")
    for c in checks:
        if not c.variants:
            c.ok = False
    rnd = 0
    while True:
        pending = [c for c in checks if c.ok is None]
        if not pending:
            return
        rnd += 1
        by_side: dict[str, list[tuple[Check, Variant]]] = {"kernel": [], "host": []}
        for c in pending:
            v = c.variants[c.tried]
            by_side[v.side].append((c, v))
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(_run_side, [tc, tc], ["kernel", "host"], [by_side["kernel"], by_side["host"]]))
        if on_round:
            on_round(rnd, len(pending))

"""Kernel source lines of the simulator's reports, found from call stacks after the run.

The kernel-side API has the real AscendC signatures, without (file, line) parameters. When the runtime
reports a violation, a warning or a wait, it writes the return addresses of the calling thread's stack
as a token ``{{npukb-at:OFF,OFF,...}}`` (hex offsets into the executable, innermost frame first;
``runtime/call_site.h``). This module resolves the tokens with ``addr2line`` and the executable's line
tables (the kernel TU is compiled with ``-g1``, which keeps the records of inlined calls): each offset
expands into its chain of source lines (the inlined callee first), and the first line that lies in the
candidate's own sources is the kernel line that called the API -- however deep inside the simulator's
headers the check ran. ``addr2line`` reads the candidate's binary, so the toolchain runs it confined,
after the candidate's process has ended.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

TOKEN = re.compile(r"\{\{npukb-at:([0-9a-f,]*)\}\}")
UNKNOWN = "an unknown line"     # what a token becomes when no frame lies in the candidate's sources
_MAX_ADDRESSES = 4096          # addresses resolved per run (tokens beyond read as UNKNOWN)


@dataclass(frozen=True)
class SourceLine:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def offsets(texts: Iterable[str]) -> list[int]:
    """The distinct offsets named by the tokens in ``texts``, in first-seen order."""
    seen: dict[int, None] = {}
    for text in texts:
        for m in TOKEN.finditer(text):
            for part in m.group(1).split(","):
                if part and len(seen) < _MAX_ADDRESSES:
                    seen.setdefault(int(part, 16), None)
    return list(seen)


def addr2line_argv(addr2line: str, exe: str, addresses: Sequence[int]) -> list[str]:
    """``addr2line`` printing each address (``-a``) and then its inlining chain (``-i``), innermost first."""
    return [addr2line, "-a", "-i", "-e", exe, *(f"0x{a:x}" for a in addresses)]


def parse_addr2line(output: str) -> dict[int, tuple[SourceLine, ...]]:
    """Offset -> its source lines (innermost first) from ``addr2line -a -i`` output; unknown lines dropped."""
    table: dict[int, list[SourceLine]] = {}
    current: list[SourceLine] | None = None
    for raw in output.splitlines():
        line = raw.strip()
        if re.fullmatch(r"0x[0-9a-fA-F]+", line):
            current = table.setdefault(int(line, 16), [])
            continue
        if current is None or ":" not in line:
            continue
        path, _, number = line.partition(" (discriminator")[0].rpartition(":")
        if path and path != "??" and number.isdigit() and int(number) > 0:
            current.append(SourceLine(path, int(number)))
    return {k: tuple(v) for k, v in table.items()}


def first_candidate_line(token_body: str, table: Mapping[int, Sequence[SourceLine]],
                         candidate: Callable[[str], str | None]) -> SourceLine | None:
    """The first line, walking the token's frames outwards, whose file ``candidate`` accepts (it returns
    the file's name as reports show it, or None for a file that is not the candidate's)."""
    for part in token_body.split(","):
        if not part:
            continue
        for src in table.get(int(part, 16), ()):
            shown = candidate(src.file)
            if shown is not None:
                return SourceLine(shown, src.line)
    return None


def resolve(text: str, table: Mapping[int, Sequence[SourceLine]], candidate: Callable[[str], str | None]) -> str:
    """``text`` with every token replaced by its kernel line (``file:line``) or UNKNOWN."""
    def one(m: re.Match[str]) -> str:
        found = first_candidate_line(m.group(1), table, candidate)
        return str(found) if found is not None else UNKNOWN
    return TOKEN.sub(one, text)


def kernel_file(path: str) -> str | None:
    """The toolchain's rule: the candidate's files are compiled as ``op_kernel/...`` (every pass folder
    holds them there); a path is shown from that component on. The simulator's headers never lie under
    a folder of that name (the build refuses to start otherwise, compiler.raw_access_flags)."""
    normal = "/" + path.replace("\\", "/")
    at = normal.find("/op_kernel/")
    return normal[at + 1:] if at >= 0 else None


def resolve_result(result: dict, lines: Callable[[Sequence[int]], str], candidate: Callable[[str], str | None]
                   = kernel_file) -> dict:
    """The launcher's ``result.json`` with every token resolved: in ``message``, ``kernel_warnings``
    and the violation's ``at`` (which also fills the violation's ``file`` and ``line``). ``lines`` runs
    ``addr2line`` on the offsets and returns its output ("" when it cannot run: tokens then read as
    UNKNOWN). Nothing else is touched: the kernel's own log may contain any text."""
    violation = result.get("violation") if isinstance(result.get("violation"), dict) else None
    warnings = [w for w in result.get("kernel_warnings", []) if isinstance(w, str)]
    texts = [t for t in (result.get("message"), *(warnings), violation.get("at") if violation else None)
             if isinstance(t, str)]
    wanted = offsets(texts)
    if not wanted:
        return result
    table = parse_addr2line(lines(wanted))
    out = dict(result)
    if isinstance(result.get("message"), str):
        out["message"] = resolve(result["message"], table, candidate)
    if "kernel_warnings" in result:
        out["kernel_warnings"] = _once_per_line(warnings, table, candidate)
    if violation is not None:
        v = {k: val for k, val in violation.items() if k != "at"}
        m = TOKEN.search(violation.get("at") or "")
        found = first_candidate_line(m.group(1), table, candidate) if m else None
        if found is not None:
            v["file"], v["line"] = found.file, found.line
        out["violation"] = v
    return out


def _once_per_line(warnings: list[str], table: Mapping[int, Sequence[SourceLine]],
                   candidate: Callable[[str], str | None]) -> list[str]:
    """Resolved warnings, the first per kernel line (the launcher told call stacks apart, and two
    stacks may end on one line)."""
    seen: set[str] = set()
    out: list[str] = []
    for w in warnings:
        m = TOKEN.search(w)
        found = first_candidate_line(m.group(1), table, candidate) if m else None
        key = str(found) if found is not None else w
        if key not in seen:
            seen.add(key)
            out.append(resolve(w, table, candidate))
    return out

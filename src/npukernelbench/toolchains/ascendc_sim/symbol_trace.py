"""Whose code calls an undefined symbol of a compiled object: the kernel's (or host code's) own files, or
the simulator's headers.

The object is compiled with line tables (``-g1 -gdwarf-4 -ffunction-sections``). Its code sections are
merged into one ``.text`` (``ld -r --force-group-allocation``), so that one ``addr2line -i`` run reads
the (inlined) call chain of every call site. The innermost frame that is neither the C++ library's headers
nor a header that stands for the called function itself (``device_libc.h``) decides: the project's own
files (under the pass's source folder) or the simulator's. Code that only the C++ library's headers own
(an out-of-line ``std::vector`` member, the vtable of ``std::thread``'s state) belongs to whoever refers to
it, found through the object's relocations; what no code refers to is reported without a line.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from npukernelbench.toolchains.ascendc_sim import elf_object
from npukernelbench.toolchains.ascendc_sim.elf_object import STT_FUNC, STT_OBJECT, STT_SECTION, ElfObject

_SHF_ALLOC = 0x2
MAX_DEPTH = 6                               # callers followed through library-only code
# Functions the compiler generates for the dynamic initialisation and destruction of namespace-scope
# objects (g++ and clang): load-time code.
LOAD_TIME_PREFIXES = ("_GLOBAL__sub_I_", "_GLOBAL__sub_D_", "_GLOBAL__I_", "_GLOBAL__D_", "__cxx_global_var_init")
_MERGE_SCRIPT = "SECTIONS\n{\n  .text : { *(.text .text.*) }\n}\n"
TOOLS = ("ld", "addr2line", "c++filt")

Run = Callable[[list[str], str], str]       # (argv, what) -> stdout; raises when the tool fails


@dataclass(frozen=True)
class SourceRoles:
    """Whose code each source file of a compiled TU is."""

    source_root: Path                   # the pass's source folder: the project's files (op_kernel/, op_host/)
    simulator: tuple[str, ...]          # path prefixes of the simulator's headers and the build's own files
    transparent: tuple[str, ...]        # prefixes of code that stands for the called function itself

    def role(self, path: str) -> str:
        """"candidate" (the project's files), "simulator", "transparent" (the C++ library's headers, and
        headers that stand for the function they wrap) or "unknown"."""
        if not path or path.startswith("??"):
            return "unknown"
        full = os.path.normpath(path if os.path.isabs(path) else os.path.join(self.source_root, path))
        if any(full.startswith(p) for p in self.transparent):
            return "transparent"
        if any(full.startswith(p) for p in self.simulator):
            return "simulator"
        return "candidate"

    def shown(self, path: str) -> str:
        full = os.path.normpath(path if os.path.isabs(path) else os.path.join(self.source_root, path))
        root = str(self.source_root).rstrip("/") + "/"
        return full[len(root):] if full.startswith(root) else os.path.basename(full)


def source_roles(source_root: Path, folder: Path, include_dir: Path, system_dirs: Sequence[str],
                 transparent_headers: Sequence[str] = ()) -> SourceRoles:
    """The roles of a TU compiled in ``source_root`` whose generated preludes lie in ``folder``;
    ``transparent_headers`` (relative to ``include_dir``) stand for the functions they wrap."""
    include = str(include_dir).rstrip("/") + "/"
    return SourceRoles(
        source_root=source_root,
        simulator=(include, str(folder).rstrip("/") + "/npukb_build"),
        transparent=(*(include + h for h in transparent_headers), *(os.path.normpath(d) + "/" for d in system_dirs)))


def defined_globals(obj: Path) -> frozenset[str]:
    """The global (and weak) symbols ``obj`` defines."""
    return frozenset(s.name for s in elf_object.read(obj).symbols
                     if s.defined and s.bind != elf_object.STB_LOCAL and s.name and s.type != STT_SECTION)


def undefined_symbols(obj: Path) -> frozenset[str]:
    return frozenset(s.name for s in elf_object.read(obj).symbols if not s.defined and s.name)


def demangle(symbols: Collection[str], run: Run, tools: dict[str, str]) -> dict[str, str]:
    """Demangled names of the C++ symbols among ``symbols`` (one c++filt run); others map to themselves."""
    names = {s: s for s in symbols}
    mangled = sorted(s for s in symbols if s.startswith("_Z"))
    if mangled:
        out = run([tools["c++filt"], *mangled], "demangling symbol names (c++filt)").splitlines()
        if len(out) == len(mangled):
            names.update(zip(mangled, (o.strip() for o in out), strict=True))
    return names


@dataclass
class _Tracer:
    """Attributes the relocation sites of a merged kernel object to candidate or simulator code."""

    elf: ElfObject
    roles: SourceRoles
    lines: Callable[[list[int]], dict[int, list[str]]]      # .text offsets -> their frames' files:lines
    text: int
    by_section: dict[int, list[tuple[int, int]]] = field(default_factory=dict)       # (start, end), sorted
    aliases: dict[tuple[int, int, int], list[int]] = field(default_factory=dict)     # (section, start, end)
    refs: dict[int, list[elf_object.Relocation]] = field(default_factory=dict)       # symbol -> references
    section_refs: dict[int, list[elf_object.Relocation]] = field(default_factory=dict)
    owners: dict[tuple[int, int, int], list[tuple[str, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for sym in self.elf.symbols:
            if sym.defined and sym.type in (STT_FUNC, STT_OBJECT) and sym.shndx < len(self.elf.sections):
                key = (sym.shndx, sym.value, sym.value + max(sym.size, 1))
                if key not in self.aliases:
                    self.by_section.setdefault(sym.shndx, []).append(key[1:])
                self.aliases.setdefault(key, []).append(sym.index)     # C1/C2 constructors share their code
        for entries in self.by_section.values():
            entries.sort()
        for rel in self.elf.relocations:
            if not self.counts(rel.section):
                continue
            target = self.elf.symbols[rel.symbol]
            if target.type == STT_SECTION:
                self.section_refs.setdefault(target.shndx, []).append(rel)
            else:
                self.refs.setdefault(rel.symbol, []).append(rel)

    def counts(self, section: int) -> bool:
        sec = self.elf.sections[section]
        return bool(sec.flags & _SHF_ALLOC) and not sec.name.startswith((".eh_frame", ".gcc_except_table"))

    def container(self, rel: elf_object.Relocation) -> tuple[int, int, int] | None:
        """The function or object whose bytes hold ``rel``: (section, start, end)."""
        entries = self.by_section.get(rel.section, [])
        i = bisect.bisect_right(entries, (rel.offset, float("inf"))) - 1
        if i >= 0 and entries[i][0] <= rel.offset < entries[i][1]:
            return (rel.section, *entries[i])
        return None

    def references(self, code: tuple[int, int, int]) -> list[elf_object.Relocation]:
        section, start, end = code
        found = [rel for symbol in self.aliases.get(code, []) for rel in self.refs.get(symbol, [])]
        for rel in self.section_refs.get(section, []):
            if any(start <= rel.addend + d < end for d in (0, 4)):
                found.append(rel)
        return found

    def attribute(self, sites: list[elf_object.Relocation]) -> list[tuple[str, str]]:
        """(role, location) of every site: "candidate" with the kernel line, "simulator", or "unknown"."""
        self._read_lines(sites)
        return [self._attribute(r, depth=0) for r in sites]

    def _read_lines(self, sites: list[elf_object.Relocation]) -> None:
        """Read the line tables of ``sites`` and, level by level, of the callers of the code that only
        library frames own: one addr2line run per level."""
        frontier, seen = sites, set()
        for _ in range(MAX_DEPTH + 1):
            self.lines([r.offset for r in frontier if r.section == self.text])
            callers = []
            for rel in frontier:
                code = self.container(rel)
                if self._direct(rel) is None and code is not None and code not in seen:
                    seen.add(code)
                    callers.extend(r for r in self.references(code) if self.container(r) != code)
            if not callers:
                return
            frontier = callers

    def _direct(self, rel: elf_object.Relocation) -> tuple[str, str] | None:
        """What the site's own call chain says, None when only library frames (or none) own it."""
        if rel.section != self.text:
            return None
        for frame in self.lines([]).get(rel.offset, []):
            path, _, line = frame.partition(" (")[0].rpartition(":")
            role = self.roles.role(path)
            if role == "candidate":
                return "candidate", f"{self.roles.shown(path)}:{line}"
            if role == "simulator":
                return "simulator", ""
        return None

    def _load_time(self, rel: elf_object.Relocation) -> bool:
        """Whether the site lies in code the compiler generates to construct or destroy namespace-scope
        objects: it runs when the object file is loaded (on the host), never in a kernel launch."""
        code = self.container(rel)
        return code is not None and any(self.elf.symbols[i].name.startswith(LOAD_TIME_PREFIXES)
                                        for i in self.aliases.get(code, []))

    def _attribute(self, rel: elf_object.Relocation, depth: int) -> tuple[str, str]:
        direct = self._direct(rel)
        if direct is not None and (direct[0] == "simulator" or not self._load_time(rel)):
            return direct
        if self._load_time(rel):
            return "load-time", direct[1] if direct is not None else ""
        # Only library code (or no line information): it is whoever calls the enclosing function's code.
        owner = self.container(rel)
        if owner is None or depth > MAX_DEPTH:
            return "unknown", ""
        return self._owner(owner, depth)

    def _owner(self, code: tuple[int, int, int], depth: int) -> tuple[str, str]:
        if code in self.owners:
            found = self.owners[code]
        else:
            self.owners[code] = [("unknown", "")]      # a cycle resolves to what the rest says
            callers = [r for r in self.references(code) if self.container(r) != code]
            found = sorted({self._attribute(r, depth + 1) for r in callers}) or [("unknown", "")]
            self.owners[code] = found
        for role in ("candidate", "unknown", "load-time", "simulator"):
            for got in found:
                if got[0] == role:
                    return got
        return "unknown", ""


def parse_addr2line(text: str) -> dict[int, list[str]]:
    """``addr2line -a -i`` output: every address's frames (innermost first), as ``file:line`` strings."""
    frames: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("0x"):
            try:
                current = frames.setdefault(int(line, 16), [])
            except ValueError:
                current = None
        elif current is not None and line.strip():
            current.append(line.strip())
    return frames


def foreign_calls(obj: Path, work: Path, suspects: Collection[str], roles: SourceRoles, run: Run,
                  tools: dict[str, str]) -> list[tuple[str, str, str]]:
    """(symbol, location, role) of every reference the project's own code in ``obj`` makes to one of
    ``suspects`` (sorted by location, those without one last); role "candidate", "unknown" (no code
    owns it) or "load-time" (the dynamic initialisation of namespace-scope objects). ``work`` is a
    scratch folder; ``tools`` maps ld and addr2line to their paths."""
    if not suspects:
        return []
    wanted = set(suspects)
    merged, script = work / "symbol_trace_merged.o", work / "symbol_trace.ld"
    script.write_text(_MERGE_SCRIPT, encoding="utf-8")
    try:
        run([tools["ld"], "-r", "--force-group-allocation", "-T", str(script), str(obj), "-o", str(merged)],
            "merging an object's code (ld -r)")
        elf = elf_object.read(merged)
        text = elf.section_named(".text")        # None: no code at all; every reference is then unknown
        cache: dict[int, list[str]] = {}

        def lines(offsets: list[int]) -> dict[int, list[str]]:
            todo = sorted({o for o in offsets if o not in cache})
            if todo:
                out = run([tools["addr2line"], "-e", str(merged), "-a", "-i", "-j", ".text",
                           *(hex(o) for o in todo)], "reading an object's line table (addr2line)")
                cache.update(parse_addr2line(out))
            return cache

        tracer = _Tracer(elf=elf, roles=roles, lines=lines, text=text.index if text is not None else -1)
        sites = [r for r in elf.relocations if tracer.counts(r.section)
                 and not elf.symbols[r.symbol].defined and elf.symbols[r.symbol].name in wanted]
        found: dict[tuple[str, str, str], None] = {}
        for rel, (role, location) in zip(sites, tracer.attribute(sites), strict=True):
            if role != "simulator":
                found.setdefault((elf.symbols[rel.symbol].name, location, role), None)
    finally:
        for path in (merged, script):
            path.unlink(missing_ok=True)
    return sorted(found, key=lambda c: (c[1] == "", line_key(c[1]), c[0], c[2]))


def line_key(location: str) -> tuple[str, int]:
    path, _, line = location.rpartition(":")
    return path, int(line) if line.isdigit() else 0

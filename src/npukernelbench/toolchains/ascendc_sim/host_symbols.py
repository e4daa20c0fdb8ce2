"""Host code keeps the C++ standard library, but no files, processes, threads or system calls.

The host side of an operator (the tiling function, OpDef registration, InferShape) runs confined
(docs/security.md); the build gives it a clear boundary first, as an allow-list of what it may link,
by families: every undefined symbol of a host object must be

* the simulator's host runtime (the objects under ``runtime/``: the CANN host API, the launcher);
* the compiler's support library (libgcc) or the C math library (libm: every function it exports);
* a C library function of an allowed family (:data:`C_FAMILIES`: memory, strings, conversions,
  arithmetic, sorting, deterministic random numbers, character classes, formatting into memory or
  onto the console, ending the program, assertions), or part of the C++ runtime's ABI
  (:data:`ABI_PREFIXES`: exceptions, guards, personality, unwinding);
* operator new/delete, or a C++ standard library name of an allowed family (:data:`CXX_FAMILIES`, the
  name declared in namespace std, read from the mangled symbol: strings, string and console streams,
  containers' out-of-line helpers, the standard exceptions, number conversions).

Anything else the project's own code calls (``fopen``, ``std::ofstream``, ``std::thread``, ``fork``,
``getenv``, ``time``, ``socket``, ...) is a ``build_error`` naming the call and the host line; a call
from the simulator's own headers is the runtime's business (symbol_trace.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from npukernelbench.toolchains.ascendc_sim import sources, symbol_trace

C_FAMILIES: dict[str, tuple[str, ...]] = {
    "memory": ("malloc", "calloc", "realloc", "reallocarray", "free", "aligned_alloc", "posix_memalign", "memalign"),
    "strings": (
        "memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr", "rawmemchr", "mempcpy", "bcopy", "bzero",
        "strlen", "strnlen", "strcmp", "strncmp", "strcasecmp", "strncasecmp", "strcpy", "strncpy", "stpcpy",
        "stpncpy", "strcat", "strncat", "strchr", "strrchr", "strchrnul", "strstr", "strcasestr", "strspn",
        "strcspn", "strpbrk", "strdup", "strndup", "__strdup", "strtok", "strtok_r", "strcoll", "strxfrm",
        "strerror", "strerror_r", "__xpg_strerror_r", "wcslen", "wmemcpy", "wmemmove", "wmemset", "wmemcmp",
        "wcscmp"),
    "conversions": (
        "atoi", "atol", "atoll", "atof", "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof", "strtold",
        "strtoimax", "strtoumax", "__isoc23_strtol", "__isoc23_strtoll", "__isoc23_strtoul", "__isoc23_strtoull",
        "__isoc23_strtoimax", "__isoc23_strtoumax", "__strtol_internal", "__strtoul_internal",
        "__strtod_internal", "__strtof_internal"),
    "arithmetic": ("abs", "labs", "llabs", "imaxabs", "div", "ldiv", "lldiv", "imaxdiv"),
    "sorting": ("qsort", "qsort_r", "bsearch"),
    "random numbers": ("rand", "srand", "rand_r", "random", "srandom", "drand48", "erand48", "lrand48", "nrand48",
                       "mrand48", "jrand48", "srand48", "seed48"),
    "characters": (
        "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc", "tolower", "toupper", "isalnum", "isalpha",
        "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint", "ispunct", "isspace", "isupper",
        "isxdigit"),
    # into memory, or onto the console (stdout/stderr: without fopen host code holds no other FILE)
    "formatting": (
        "printf", "vprintf", "fprintf", "vfprintf", "puts", "putchar", "fputs", "fputc", "putc", "fwrite",
        "fflush", "snprintf", "vsnprintf", "sprintf", "vsprintf", "asprintf", "vasprintf", "sscanf", "vsscanf",
        "__isoc99_sscanf", "__isoc99_vsscanf", "__isoc23_sscanf", "__isoc23_vsscanf", "__printf_chk",
        "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "__vsnprintf_chk", "__vsprintf_chk", "__vfprintf_chk",
        "__vprintf_chk", "__asprintf_chk", "__vasprintf_chk", "stdout", "stderr"),
    "ending the program": ("abort", "exit", "_Exit", "quick_exit", "atexit", "at_quick_exit"),
    "diagnostics": ("__assert_fail", "__assert_perror_fail", "__stack_chk_fail", "__chk_fail", "__fortify_fail",
                    "__errno_location"),
}
C_LIBRARY = frozenset(name for names in C_FAMILIES.values() for name in names)

# The C++ runtime's ABI: exceptions, static-local guards, destructors at exit, personality, unwinding,
# and the access to a `thread_local` object (__tls_get_addr: storage of the one thread the tiling runs
# on; creating threads stays forbidden).
ABI_PREFIXES = ("__cxa_", "__gxx_personality_", "_Unwind_", "__dso_handle", "_GLOBAL_OFFSET_TABLE_",
                "__tls_get_addr")

# The C++ standard library's families, by the name the symbol is declared under in namespace std (or
# std::__cxx11 / std::__detail): read from the mangled symbol, so that a function's return type or
# arguments never decide. Operators: ``ls``/``rs`` are operator<< and operator>> (on streams).
CXX_FAMILIES: dict[str, tuple[str, ...]] = {
    "allocation": ("allocator", "Sa", "nothrow"),
    "strings": ("basic_string", "basic_string_view", "char_traits", "to_string", "to_wstring", "stoi", "stol",
                "stoul", "stoll", "stoull", "stof", "stod", "stold", "Ss", "Sb"),
    "string streams": ("basic_stringbuf", "basic_ostringstream", "basic_istringstream", "basic_stringstream"),
    "console streams": ("cout", "cerr", "clog", "wcout", "wcerr", "wclog", "basic_ostream", "basic_istream",
                        "basic_iostream", "basic_ios", "basic_streambuf", "ios_base", "endl", "ends", "flush",
                        "__ostream_insert", "locale", "ctype", "ctype_base", "num_put", "num_get", "numpunct",
                        "codecvt", "use_facet", "has_facet", "So", "Si", "Sd", "ls", "rs"),
    "containers": ("_Rb_tree_increment", "_Rb_tree_decrement", "_Rb_tree_insert_and_rebalance",
                   "_Rb_tree_rebalance_for_erase", "_List_node_base", "_Prime_rehash_policy", "_Hash_bytes",
                   "_Fnv_hash_bytes", "_Sp_make_shared_tag", "align"),
    "exceptions": ("terminate", "unexpected", "uncaught_exception", "uncaught_exceptions", "rethrow_exception",
                   "current_exception", "__exception_ptr", "nested_exception", "exception", "bad_alloc",
                   "bad_array_new_length", "bad_cast", "bad_typeid", "bad_function_call", "bad_optional_access",
                   "bad_variant_access", "bad_any_cast", "bad_exception", "bad_weak_ptr", "logic_error",
                   "runtime_error", "domain_error", "invalid_argument", "length_error", "out_of_range",
                   "range_error", "overflow_error", "underflow_error", "__glibcxx_assert_fail"),
    "numbers": ("to_chars", "from_chars", "__to_chars_i"),
}
CXX_NAMES = frozenset(name for names in CXX_FAMILIES.values() for name in names)
_ALLOCATION = re.compile(r"_Z(?:nw|na|dl|da)")                 # operator new / new[] / delete / delete[]
_ABI_TYPEINFO = re.compile(r"_ZT[ISV]N10__cxxabiv1")           # the ABI's class-info vtables and typeinfo
_STD = re.compile(r"_Z(?:T[ISV]|TT)?N?[KVr]*(?:St|(?=S[osidab]))")
_SOURCE_NAME = re.compile(r"(\d+)|(S[oisdab])|([a-z]{2})")


def std_name(symbol: str) -> str | None:
    """The name ``symbol`` has directly in namespace std (std::__cxx11 and std::__detail looked through),
    or None when it is not in std. ``_ZNSt6thread6detach`` -> "thread"; ``_ZSt4cout`` -> "cout"."""
    m = _STD.match(symbol)
    if m is None:
        return None
    rest = symbol[m.end():]
    while True:
        n = _SOURCE_NAME.match(rest)
        if n is None:
            return None
        if n.group(1):
            length = int(n.group(1))
            name = rest[n.end():n.end() + length]
            if name in ("__cxx11", "__detail") and len(rest) > n.end() + length:
                rest = rest[n.end() + length:]
                continue
            return name
        return n.group(2) or n.group(3)


MAX_REPORTED = 8


@dataclass(frozen=True)
class HostCall:
    """A call host code makes outside what it may link."""

    symbol: str
    name: str            # demangled
    location: str        # "op_host/x.cpp:12", "" when the object does not say

    def message(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return (f"{where}error: host code calls '{self.name}': host code may use the C++ standard library, but no "
                "files, processes, threads, network, environment, clocks or system calls")


@functools.lru_cache(maxsize=8)
def _runtime_exports(objects: tuple[tuple[str, int], ...]) -> frozenset[str]:
    names: set[str] = set()
    for path, _mtime in objects:
        names |= symbol_trace.defined_globals(Path(path))
    return frozenset(n for n in names if not n.startswith(sources.RUNTIME_INTERNAL_PREFIXES))


def host_library(runtime_objects: Iterable[Path], support_library: frozenset[str],
                 math_library: frozenset[str]) -> frozenset[str]:
    """The names host code may link whatever they look like: the simulator's runtime, libgcc, libm, the
    allowed C families."""
    picked = tuple((str(p), p.stat().st_mtime_ns) for p in runtime_objects)
    return _runtime_exports(picked) | support_library | math_library | C_LIBRARY


def permitted(symbol: str, library: frozenset[str]) -> bool:
    """Whether host code may link ``symbol``."""
    if symbol in library or symbol.startswith(ABI_PREFIXES) or _ALLOCATION.match(symbol) or _ABI_TYPEINFO.match(symbol):
        return True
    name = std_name(symbol) or ""
    return name in CXX_NAMES or name.startswith("__throw_")


def host_calls(obj: Path, work: Path, library: frozenset[str], roles: symbol_trace.SourceRoles,
               run: symbol_trace.Run, tools: dict[str, str]) -> list[HostCall]:
    """The calls of the project's own host code in ``obj`` outside what host code may link."""
    suspects = {s for s in symbol_trace.undefined_symbols(obj) if not permitted(s, library)}
    calls = sorted({(s, loc) for s, loc, _role in symbol_trace.foreign_calls(obj, work, suspects, roles, run, tools)},
                   key=lambda c: (c[1] == "", symbol_trace.line_key(c[1]), c[0]))
    names = symbol_trace.demangle({s for s, _ in calls}, run, tools) if calls else {}
    return [HostCall(symbol=s, name=names[s], location=loc) for s, loc in calls]


def report(calls: Sequence[HostCall], what: str) -> str:
    lines = [c.message() for c in calls[:MAX_REPORTED]]
    if len(calls) > MAX_REPORTED:
        lines.append(f"... and {len(calls) - MAX_REPORTED} more")
    lines.append(f"note: {what}: the host side runs confined; it may link the CANN host API, the C++ standard "
                 "library (strings, containers, string and console streams, exceptions) and the C library's "
                 "memory, string, conversion, math and formatting functions")
    return "\n".join(lines)

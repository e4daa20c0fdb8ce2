"""Static checks on untrusted sources, table-driven. A finding makes the sample ``rejected``.

Two passes over the C/C++ files the build compiles (every source and header, except the
operator-API library sources ``op_host/aclnn_*.cpp`` / ``*_l0.cpp`` that are not built, and files
such as ``CMakeLists.txt``):

1. the raw text, read the way the compiler does where it matters: backslash-newlines spliced,
   comments dropped, string literals kept apart from code, digraphs (``%:``) read as ``#``;
   directives (includes, pragmas, ``#line``, keyword macros) are checked here;
2. what the compiler sees: every translation unit preprocessed as the toolchain's compiler does
   (``Toolchain.preprocessing()``: its include directories and defines) in a confined child
   (:mod:`npukernelbench.preprocessed`), and the rules on names applied
   to the lines that come from the project's own files. A name assembled by token pasting or hidden
   behind a macro is spelled out there, so ``##`` itself needs no ban. Names are compared after
   removing the spellings that reach the same libc function (``__builtin_fork``, ``__libc_system``,
   ``open64``, ``__open_2``).

They reject:

* includes of system headers outside :data:`STANDARD_HEADERS` (the toolchain's public headers, its
  ``include_allowlist()``, and the project's own files are allowed; a name found nowhere is left to
  the build), absolute includes,
  ``..`` includes that do not name a project file,
  computed includes (``#include MACRO``), ``#include_next`` / ``#import``;
* inline assembly (also ``asm`` labels), ``_Pragma`` and pragmas outside :data:`ALLOWED_PRAGMAS`,
  redefining C++ keywords (``#define private public``), ``#line``;
* host code that touches files, sockets, processes, the environment, signals, memory mappings,
  dynamic loading or raw system calls (:data:`FORBIDDEN_NAMES`), code that runs before ``main``
  (constructor attributes, ``.init_array`` sections), symbol aliasing to reach libc under another
  name (``weakref``, ``ifunc``), and references to the simulator's internals (``npukb``, its
  ``sim::`` namespace, its tensor internals, its instrumentation hooks);
* thread-local storage and the thread pointer (``thread_local``, ``__thread``,
  ``__builtin_thread_pointer``, ``pthread_self``, ``errno``), the way a kernel would look for the
  simulator's per-block cost state.

Standard headers that give no way out of the confinement (``<iostream>``, ``<chrono>``,
``<sstream>``, ...) may be included; what reaches files, sockets, processes or the environment is
rejected by name. Known leniency: the simulator's own API macros expand to its internals on the
candidate's lines, so an ``npukb`` name on a preprocessed line is accepted where the raw line does
not contain it and uses one of those macros; a translation unit the preprocessor rejects (a missing
include, ``#error``) is only checked raw (the build reports it). They are a first line: confinement
(:mod:`npukernelbench.sandbox`) still holds what slips by.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace

from npukernelbench import preprocessed
from npukernelbench.extract import host_sources
from npukernelbench.toolchains.base import Preprocessing


@dataclass(frozen=True)
class Finding:
    rule: str          # short rule id, e.g. "include-path"
    path: str          # source file (relative path in the project)
    line: int
    detail: str

    def __str__(self) -> str:
        return f"rejected by static check '{self.rule}' at {self.path}:{self.line}: {self.detail}"


@dataclass(frozen=True)
class Rule:
    name: str
    detail: str


# ------------------------------------------------------------------------------------ the tables

RULES: dict[str, Rule] = {r.name: r for r in (
    Rule("include-path", "absolute, computed or project-escaping '..' include paths are not allowed"),
    Rule("include-not-allowed", "only the toolchain's headers, the project's own files and a short list of "
                                "standard headers may be included"),
    Rule("include-next", "#include_next / #import are not allowed"),
    Rule("inline-asm", "inline assembly (and asm labels) are not allowed"),
    Rule("pragma", "only #pragma once/pack/unroll/GCC unroll/GCC diagnostic are allowed"),
    Rule("macro-keyword", "redefining a C++ keyword with #define/#undef is not allowed"),
    Rule("directive", "this preprocessor directive is not allowed"),
    Rule("file-access", "host code may not open, create or delete files or directories"),
    Rule("network", "host code may not open sockets"),
    Rule("process", "host code may not spawn, fork, signal or control processes"),
    Rule("dynamic-loading", "host code may not load libraries or look up symbols at run time"),
    Rule("environment", "host code may not read or change the environment"),
    Rule("raw-syscall", "raw system calls are not allowed"),
    Rule("memory-mapping", "host code may not map or re-protect memory"),
    Rule("signals", "host code may not install signal handlers"),
    Rule("threads", "host code may not start threads"),
    Rule("code-before-main", "code that runs before main (constructor attributes, init sections) is not "
                             "allowed"),
    Rule("symbol-alias", "symbol aliasing attributes (weakref, ifunc, alias, symver) are not allowed"),
    Rule("simulator-internals",
         "the simulator's internals (namespace npukb, AscendC::sim, tensor internals, instrumentation hooks) "
         "are not part of the AscendC API"),
    Rule("thread-storage", "thread-local storage and the thread pointer are not available to operator code"),
    Rule("no-instrumentation", "attributes that switch off the compiler instrumentation the simulator's cost "
                               "model relies on are not allowed"),
)}

STANDARD_HEADERS = frozenset({
    # C++ (no <fstream>, <filesystem>, <thread>, <future>: their purpose is what the confinement denies)
    "algorithm", "any", "array", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno", "cfenv", "cfloat",
    "charconv", "chrono", "cinttypes", "climits", "clocale", "cmath", "compare", "complex", "concepts",
    "cstdarg", "cstdbool", "cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "ctime", "cuchar", "cwchar",
    "cwctype", "deque", "exception", "forward_list", "functional", "initializer_list", "iomanip", "ios",
    "iosfwd", "iostream", "istream", "iterator", "limits", "list", "locale", "map", "memory", "mutex", "new",
    "numbers", "numeric", "optional", "ostream", "queue", "random", "ratio", "regex", "set", "span", "sstream",
    "stack", "stdexcept", "streambuf", "string", "string_view", "system_error", "tuple", "type_traits",
    "typeindex", "typeinfo", "unordered_map", "unordered_set", "utility", "valarray", "variant", "vector",
    "version",
    # C
    "assert.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "limits.h", "math.h", "stdarg.h",
    "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h", "wchar.h",
})

ALLOWED_PRAGMAS = (re.compile(r"^(once|pack\b.*|unroll\b.*|GCC\s+unroll\b.*|GCC\s+diagnostic\b.*)$"),)

ALLOWED_DIRECTIVES = frozenset({"include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else",
                                "endif", "pragma", "error", "warning", ""})

_FORBIDDEN: dict[str, tuple[str, ...]] = {
    "file-access": (
        "fopen", "freopen", "fdopen", "tmpfile", "tmpnam", "tempnam", "mkstemp", "mkstemps", "mkostemp",
        "mkdtemp", "open", "openat", "openat2", "creat", "ifstream", "ofstream", "fstream", "filebuf",
        "basic_ifstream", "basic_ofstream", "basic_fstream", "basic_filebuf", "filesystem", "opendir",
        "fdopendir", "readdir", "scandir", "unlink", "unlinkat", "rmdir", "rename", "renameat", "symlink",
        "symlinkat", "linkat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "truncate",
        "ftruncate", "mknod", "mkfifo", "mkdir", "mkdirat", "readlink", "readlinkat", "open_by_handle_at",
        "name_to_handle_at", "sendfile", "inotify_init", "fanotify_init"),
    "network": ("socket", "socketpair", "connect", "accept", "accept4", "getaddrinfo", "gethostbyname",
                "gethostbyname2"),
    "process": ("system", "popen", "fork", "vfork", "clone", "clone3", "execl", "execle", "execlp", "execv",
                "execve", "execvp", "execvpe", "execveat", "fexecve", "posix_spawn", "posix_spawnp", "setsid",
                "setpgid", "daemon", "kill", "killpg", "tgkill", "tkill", "raise", "pthread_kill", "sigqueue",
                "ptrace", "prctl", "setrlimit", "prlimit",
                "unshare", "setns", "chroot", "pivot_root", "mount", "umount", "umount2", "setuid", "seteuid",
                "setgid", "pidfd_open", "process_vm_writev", "process_vm_readv"),
    "dynamic-loading": ("dlopen", "dlmopen", "dlsym", "dlvsym"),
    "environment": ("getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv", "environ"),
    "raw-syscall": ("syscall",),
    "memory-mapping": ("mmap", "mprotect", "mremap", "memfd_create", "shm_open", "shmget", "shmat",
                       "pkey_mprotect"),
    "signals": ("signal", "sigaction", "sigaltstack", "bsd_signal", "sysv_signal"),
    "threads": ("jthread", "pthread_create"),
    "inline-asm": ("asm",),
    "code-before-main": ("constructor", "destructor", "init_priority"),
    "symbol-alias": ("weakref", "ifunc", "alias", "symver"),
    "simulator-internals": ("npukb", "npukb_sim"),
    "thread-storage": ("thread_local", "Thread_local", "thread_pointer", "pthread_self", "pthread_getspecific",
                       "pthread_setspecific", "pthread_key_create", "tls_get_addr", "errno", "errno_location"),
    "no-instrumentation": ("no_sanitize", "no_sanitize_address", "no_address_safety_analysis", "no_sanitize_thread",
                           "no_sanitize_undefined", "no_sanitize_coverage", "no_instrument_function",
                           "disable_sanitizer_instrumentation", "no_profile_instrument_function"),
}
FORBIDDEN_NAMES: dict[str, str] = {name: rule for rule, names in _FORBIDDEN.items() for name in names}
# Names only forbidden right after ``std::`` (a bare ``thread`` is an ordinary word).
FORBIDDEN_STD: dict[str, str] = {"thread": "threads", "async": "threads"}
# Spellings compared before normalisation (``__thread`` normalises to the ordinary word ``thread``).
FORBIDDEN_RAW: dict[str, str] = {"__thread": "thread-storage"}
# Name prefixes (after normalisation): the simulator's symbols and the instrumentation hooks the
# kernel TU calls (``__asan_load4_noabort``, ``__cyg_profile_func_enter``) for raw-access costing.
FORBIDDEN_PREFIXES: dict[str, str] = {"npukb": "simulator-internals", "NPUKB": "simulator-internals",
                                      "asan_": "simulator-internals",
                                      "cyg_profile_": "simulator-internals", "sanitizer_": "simulator-internals"}
# Members of the simulator's tensor classes that are not AscendC API, forbidden as ``.name(`` calls.
FORBIDDEN_MEMBER_CALLS: dict[str, str] = {"loc": "simulator-internals", "mutable_loc": "simulator-internals"}
# Namespaces forbidden as qualifiers (``sim::LocalLoc``): the simulator's kernel-side internals.
FORBIDDEN_QUALIFIERS: dict[str, str] = {"sim": "simulator-internals"}

_INIT_SECTION = re.compile(r"\.(init_array|preinit_array|fini_array|ctors|dtors)\b")

CXX_KEYWORDS = frozenset((
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t "
    "class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield "
    "decltype default delete do double dynamic_cast else enum explicit export extern false float for friend "
    "goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private "
    "protected public register reinterpret_cast requires return short signed sizeof static static_assert "
    "static_cast struct switch template this thread_local throw true try typedef typeid typename union "
    "unsigned using virtual void volatile wchar_t while xor xor_eq").split())


# ---------------------------------------------------------------------------------------- lexing

@dataclass(frozen=True)
class _Token:
    kind: str          # ident | string | punct | number | newline
    text: str
    line: int          # line in the original text
    start: int         # offsets in the spliced text
    end: int


_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?(\*/|\Z))
  | (?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
  | (?P<string>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*"?)
  | (?P<char>(?:u8|[uUL])?'(?:\\.|[^'\\\n])*'?)
  | (?P<ident>(?:[A-Za-z_$]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|[^\x00-\x7f])
               (?:[A-Za-z0-9_$]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|[^\x00-\x7f])*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.']|)*)
  | (?P<newline>\n)
  | (?P<space>[ \t\r\f\v]+)
  | (?P<punct>%:%:|\#\#|%:|::|->|[^\s])
""", re.VERBOSE | re.DOTALL)


def _splice(text: str) -> tuple[str, list[int]]:
    """Text with backslash-newlines removed, and the original line of every character."""
    out: list[str] = []
    lines: list[int] = []
    line = 1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            j = i + 1
            while j < n and text[j] in " \t\r":
                j += 1
            if j < n and text[j] == "\n":          # GCC splices even with trailing blanks
                line += 1
                i = j + 1
                continue
        out.append(ch)
        lines.append(line)
        if ch == "\n":
            line += 1
        i += 1
    return "".join(out), lines


def _tokens(spliced: str, lines: list[int]) -> list[_Token]:
    found: list[_Token] = []
    for m in _TOKEN.finditer(spliced):
        kind = m.lastgroup or "punct"
        if kind in ("space", "delim"):
            continue
        if kind == "comment":
            # a block comment spanning lines still ends the directive only at its newline tokens
            continue
        if kind in ("raw", "char"):
            kind = "string"
        if m.group("raw") is not None:
            kind = "string"
        text_ = m.group(0)
        if kind == "punct":
            text_ = {"%:": "#", "%:%:": "##"}.get(text_, text_)
        line = lines[m.start()] if m.start() < len(lines) else (lines[-1] if lines else 1)
        found.append(_Token(kind, text_, line, m.start(), m.end()))
    return found


def _normalize(name: str) -> str:
    """The libc name behind a spelling: __builtin_fork, __libc_system, open64, __open_2 -> base."""
    previous = None
    while previous != name:
        previous = name
        name = name.strip("_")
        for prefix in ("builtin_", "libc_", "GI_", "sys_"):
            if name.startswith(prefix) and len(name) > len(prefix):
                name = name[len(prefix):]
        for suffix in ("64", "_2", "_chk", "_nocancel"):
            if name.endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
    return name


# ------------------------------------------------------------------------------------- the checks

# What an include outside the project may name: a header file (``x.h``, ``x.hpp``, ``x.inc``) or an
# extensionless standard header (``vector``); no spaces or other odd characters.
_HEADER_FILE = re.compile(r"[A-Za-z0-9_+-]+|[A-Za-z0-9_.+-]+\.(h|hh|hpp|hxx|inc|inl|ipp|tcc)")
_HEADER_NAME = re.compile(r'^\s*(<(?P<angle>[^>\n]*)>|"(?P<quote>[^"\n]*)")')
_HAS_INCLUDE = re.compile(r'(__has_include(?:_next)?)\s*\(\s*(?:<([^>\n]*)>|"([^"\n]*)")')


def _finding(rule: str, path: str, line: int, what: str = "") -> Finding:
    detail = RULES[rule].detail
    return Finding(rule, path, line, f"{detail} ({what})" if what else detail)


def _check_include(name: str, angle: bool, path: str, line: int, files: Mapping[str, str],
                   headers: Collection[str], cxx: str | None) -> Finding | None:
    if not name or name.startswith("/") or "\\" in name:
        return _finding("include-path", path, line, f"#include {name!r}")
    parts = name.split("/")
    if not angle:
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))
        if ".." in parts:
            if resolved.startswith("../") or resolved == ".." or resolved not in files:
                return _finding("include-path", path, line,
                                f"#include \"{name}\" does not name a file of the project")
            return None
        if resolved in files:
            return None
    elif ".." in parts:
        return _finding("include-path", path, line, f"#include <{name}>")
    if name in STANDARD_HEADERS or name in headers:
        return None
    if angle and any(f == name or f.endswith("/" + name) for f in files):
        return None
    if not _HEADER_FILE.fullmatch(parts[-1]):      # <platform/config.json>, <lib/a b.h>: not a header
        shown = f"<{name}>" if angle else f'"{name}"'
        return _finding("include-not-allowed", path, line, f"#include {shown}")
    if not (name.startswith("npukb") or preprocessed.system_header(name, cxx)):
        return None                     # found nowhere: the build fails with "no such file"
    shown = f"<{name}>" if angle else f'"{name}"'
    return _finding("include-not-allowed", path, line, f"#include {shown}")


def _check_directive(tokens: list[_Token], raw: str, path: str, files: Mapping[str, str],
                     headers: Collection[str], cxx: str | None) -> Finding | None:
    """``tokens`` starts at the '#'; ``raw`` is the directive's text after its name."""
    line = tokens[0].line
    if len(tokens) > 1 and tokens[1].kind == "number":      # GNU line marker: '# 12 "file"' works like #line
        return _finding("directive", path, line, f"line marker '# {tokens[1].text}'")
    name = tokens[1].text if len(tokens) > 1 and tokens[1].kind == "ident" else ""
    if name in ("include_next", "import"):
        return _finding("include-next", path, line, f"#{name}")
    if name not in ALLOWED_DIRECTIVES:
        return _finding("directive", path, line, f"#{name}")
    if name == "include":
        m = _HEADER_NAME.match(raw)
        if not m:
            return _finding("include-path", path, line, f"computed include '#include {raw.strip()[:60]}'")
        angle = m.group("angle") is not None
        return _check_include(m.group("angle") if angle else m.group("quote"), angle, path, line, files, headers,
                              cxx)
    if name == "pragma":
        body = " ".join(raw.split())
        if not any(p.match(body) for p in ALLOWED_PRAGMAS):
            return _finding("pragma", path, line, f"#pragma {body[:60]}")
    if name in ("define", "undef") and len(tokens) > 2 and tokens[2].kind == "ident" \
            and tokens[2].text in CXX_KEYWORDS:
        return _finding("macro-keyword", path, line, f"#{name} {tokens[2].text}")
    for m in _HAS_INCLUDE.finditer(raw):
        if m.group(1) == "__has_include_next":
            return _finding("include-next", path, line, "__has_include_next")
        target = m.group(2) if m.group(2) is not None else m.group(3)
        if target.startswith("/") or ".." in target.split("/"):
            return _finding("include-path", path, line, f"__has_include({target!r})")
    return None


def _check_code(tokens: list[_Token], path: str,
                allowed: Callable[[str, _Token], bool] | None = None) -> Finding | None:
    for i, tok in enumerate(tokens):
        if tok.kind == "string":
            m = _INIT_SECTION.search(tok.text)
            if m:
                return _finding("code-before-main", path, tok.line, f"section '{m.group(0)}'")
            continue
        if tok.kind != "ident":
            continue
        if tok.text == "_Pragma":
            return _finding("pragma", path, tok.line, "_Pragma")
        before = tokens[i - 1].text if i > 0 and tokens[i - 1].kind == "punct" else ""
        after = tokens[i + 1].text if i + 1 < len(tokens) and tokens[i + 1].kind == "punct" else ""
        if before in (".", "->"):           # a member of some object, not the libc function
            rule = FORBIDDEN_MEMBER_CALLS.get(tok.text) if after == "(" else None
            if rule is not None:
                return _finding(rule, path, tok.line, f"'{before}{tok.text}()'")
            continue
        name = _normalize(tok.text)
        rule = FORBIDDEN_NAMES.get(name) or FORBIDDEN_RAW.get(tok.text)
        if rule is None:
            rule = next((r for prefix, r in FORBIDDEN_PREFIXES.items() if name.startswith(prefix)), None)
        if rule is None and after == "::":
            rule = FORBIDDEN_QUALIFIERS.get(tok.text)
        if rule is None and before == "::" and i >= 2 and tokens[i - 2].text == "std":
            rule = FORBIDDEN_STD.get(name)
        if rule is not None and not (allowed is not None and allowed(rule, tok)):
            return _finding(rule, path, tok.line, f"'{tok.text}'")
    return None


def _check_file(path: str, text: str, files: Mapping[str, str], headers: Collection[str],
                cxx: str | None) -> Finding | None:
    spliced, lines = _splice(text)
    tokens = _tokens(spliced, lines)
    code: list[_Token] = []
    start_of_line = True
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind == "newline":
            start_of_line = True
            i += 1
            continue
        if start_of_line and tok.kind == "punct" and tok.text == "#":
            j = i
            while j < len(tokens) and tokens[j].kind != "newline":
                j += 1
            directive = tokens[i:j]
            end = tokens[j].start if j < len(tokens) else len(spliced)
            rest = spliced[directive[1].end:end] if len(directive) > 1 else ""
            rest = _COMMENTS.sub(" ", rest)
            finding = _check_directive(directive, rest, path, files, headers, cxx)
            if finding:
                return finding
            name = directive[1].text if len(directive) > 1 else ""
            if name != "include":       # the header name of an include is not code
                code.extend(directive[2:])
            i = j
            continue
        start_of_line = False
        code.append(tok)
        i += 1
    return _check_code(code, path)


_COMMENTS = re.compile(r"/\*.*?(\*/|\Z)|//[^\n]*", re.DOTALL)


def checked_files(files: Mapping[str, str]) -> list[str]:
    """The files the checks read: C/C++ sources and headers, without the operator-API library
    sources that the build does not compile."""
    hosts = set(host_sources(files))
    return sorted(p for p in files if preprocessed.is_source(p)
                  and not (p.startswith("op_host/") and p.endswith((".cpp", ".cc", ".cxx")) and p not in hosts))


def _identifiers(text: str) -> set[str]:
    spliced, lines = _splice(text)
    return {t.text for t in _tokens(spliced, lines) if t.kind == "ident"}


_MACRO_DEF = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(.*)$", re.MULTILINE)


def _candidate_macros(files: Mapping[str, str]) -> dict[str, set[str]]:
    """Every macro the project's files define, with the identifiers of its body."""
    bodies: dict[str, set[str]] = {}
    for path in files:
        if preprocessed.is_source(path):
            spliced, _ = _splice(files[path])
            for m in _MACRO_DEF.finditer(_COMMENTS.sub(" ", spliced)):
                bodies.setdefault(m.group(1), set()).update(_identifiers(m.group(2)))
    return bodies


def _check_preprocessed(files: Mapping[str, str], preprocessing: Preprocessing) -> Finding | None:
    macros = preprocessed.toolchain_macros(tuple(preprocessing.include_dirs))
    own = _candidate_macros(files)
    raw_lines = {path: text.splitlines() for path, text in files.items()}

    def reachable(names: set[str]) -> set[str]:
        """The identifiers of ``names`` plus those of the project's macros they expand (transitively)."""
        seen, todo = set(names), [n for n in names if n in own]
        while todo:
            for ident in own[todo.pop()] - seen:
                seen.add(ident)
                if ident in own:
                    todo.append(ident)
        return seen

    def invocation(lines: list[str], first: int) -> str:
        """The raw text of the statement starting on line ``first`` (1-based): the preprocessor
        reports a macro invocation that spans lines, arguments included, on its first line."""
        text, depth = "", 0
        for raw in lines[first - 1:first - 1 + 64]:
            text += raw + "\n"
            depth += raw.count("(") - raw.count(")")
            if depth <= 0:
                break
        return text

    def allowed(rule: str, tok: _Token, path: str) -> bool:
        if rule != "simulator-internals":
            return False
        lines = raw_lines.get(path, [])
        raw = _identifiers(invocation(lines, tok.line)) if 0 < tok.line <= len(lines) else set()
        return tok.text not in raw and bool(reachable(raw) & macros)

    for line in preprocessed.candidate_lines({p: files[p] for p in files if preprocessed.is_source(p)},
                                             preprocessing):
        tokens = [_Token(t.kind, t.text, line.line, t.start, t.end)
                  for t in _tokens(line.text, [line.line] * len(line.text)) if t.kind != "newline"]
        finding = _check_code(tokens, line.path, lambda rule, tok, path=line.path: allowed(rule, tok, path))
        if finding:
            return replace(finding, detail=f"{finding.detail}, after macro expansion")
    return None


def check_sources(files: Mapping[str, str], headers: Collection[str], preprocessing: Preprocessing) -> Finding | None:
    """The first rule violated by any file, or None when the sources pass. ``headers``: the include
    names of the toolchain's public headers (``Toolchain.include_allowlist()``); ``preprocessing``: how
    its compiler preprocesses the project (``Toolchain.preprocessing()``), for the second pass over the
    code with macros expanded (skipped when it names no compiler)."""
    for path in checked_files(files):
        finding = _check_file(path, files[path], files, headers, preprocessing.compiler)
        if finding:
            return finding
    return _check_preprocessed(files, preprocessing)

"""The host C++ compiler the simulator builds with: g++ when present, else clang++; ``NPUKB_CXX``
overrides. Compile flags live here too, so that they enter every build's cache key.

The kernel TU is also compiled with the raw-access instrumentation (:func:`raw_access_flags`, g++
only): the candidate's own loads and stores call the runtime's hooks and are costed, the
simulator's headers mark where their own code runs (docs/cost-model.md, "Raw accesses")."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

# Line tables only (same code as -g0), DWARF 4, a section per function: what symbol_trace.py reads.
# No variable-tracking assignments: -g1 emits no variable locations, yet GCC still runs VTA, which
# took a quarter of the compile time of large kernel TUs (add_layer_norm 18.2 -> 13.4 s of CPU,
# sin_math 3.2 -> 2.3 s) and half of their object size. The machine code and the records of inlined
# calls are identical; the line tables differ in detail (which statement an address is attributed to
# inside the simulator's headers; the call-site, message and device-code tests hold).
LINE_TABLE_FLAGS: tuple[str, ...] = ("-g1", "-gdwarf-4", "-ffunction-sections", "-fno-var-tracking-assignments")
# -O1: measured as the best cold-build vs run-time trade-off for kernel TUs (docs/simulator.md).
FLAGS: tuple[str, ...] = ("-std=c++17", "-O1", "-g0", "-pthread", "-fno-strict-aliasing", "-fmax-errors=10")
# The kernel TU is compiled as bisheng compiles the vector part of an operator for Ascend 910B (dav-c220):
# the predefined macros that select a chip's code path in real kernels (`#if __CCE_AICORE__ == 220`).
# Neither ASCENDC_CPU_DEBUG nor __CCE_KT_TEST__ is defined: they select CPU-debug code paths, and
# real kernels skip device behaviour (SyncAll, GetAccVal) under them.
KERNEL_DEFINES: tuple[str, ...] = ("-D__CCE_AICORE__=220", "-D__NPU_ARCH__=2201")
# Device code has no C++ runtime: no exceptions, no RTTI, no thread-safe statics (no threads), no
# errno (scalar math builtins stay builtins). No _FORTIFY_SOURCE and no stack protector (distributions'
# compilers turn them on by default, Ubuntu's both): the C library's memory functions are the device's
# (npukb_sim/kernel/device_libc.h), and a canary check would make every kernel call __stack_chk_fail, which
# the device-symbol check must refuse as a C library call. -g1 (line tables and
# inlining, same code as -g0) lets the device-symbol check tell whose code a call is and name its kernel
# line (device_symbols.py), and reports name the kernel line that called an API from the call stack
# (call_sites.py; the API has no location parameters); DWARF 4, whose line tables binutils reads
# reliably in relocatable objects; one section per function, so that every call between functions is a
# relocation the check can follow.
DEVICE_CODE_FLAGS: tuple[str, ...] = ("-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", "-fno-math-errno",
                                      "-U_FORTIFY_SOURCE", "-fno-stack-protector", *LINE_TABLE_FLAGS)
KERNEL_FLAGS: tuple[str, ...] = tuple(f for f in FLAGS if f != "-g0") + KERNEL_DEFINES + DEVICE_CODE_FLAGS
# Host TUs (tiling function + OpDef) run once per launch: no optimisation, fastest to compile.
# Line tables let the host-symbol check name the host line of a call host code may not make (see
# DEVICE_CODE_FLAGS).
HOST_FLAGS: tuple[str, ...] = ("-std=c++17", "-O0", "-pthread", "-fno-strict-aliasing", "-fmax-errors=10",
                               *LINE_TABLE_FLAGS)
LINK_FLAGS: tuple[str, ...] = ("-pthread",)


@dataclass(frozen=True)
class Compiler:
    path: str
    version: str          # first line of ``--version``; part of every cache key
    identity: str = ""    # version, resolved binary, its size and modification time: the cache key's part


def _identity(path: str, version: str) -> str:
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return f"{version}|{real}"
    return f"{version}|{real}|{st.st_size}|{st.st_mtime_ns}"


# Tried in this order when NPUKB_CXX is not set: g++-12 after g++ for hosts whose g++ is 13 or later.
COMPILER_NAMES: tuple[str, ...] = ("g++", "g++-12", "clang++")
# AscendC's half converts implicitly from float and double, as it does on the device compiler:
# `half x = 1.0;`, `return sum * 0.5;` in a half function, a double argument to a half parameter are
# everyday kernel code. GCC 13 and later give _Float16 (the simulator's half) C++23's rules for
# extended floating-point types, under which a conversion from a type of greater rank is ill-formed:
# such a compiler rejects valid kernels, and a verdict built on it would blame the candidate. The probe
# tells them apart; the control is the same program with every conversion spelled out, so that only a
# compiler that builds the control and rejects the probe is judged here (one that fails both is broken
# in some other way, which its builds report as they always did).
HALF_PROBE = """using half = _Float16;
struct P { half scale{1.0}; half bias = 0.5; };
void take(half) {}
half mean(half a, float b, double c) { half x = 1.0; take(c); P p; return (a + b + x * p.scale + p.bias) * 0.5; }
"""
HALF_CONTROL = """using half = _Float16;
struct P { half scale{static_cast<half>(1.0)}; half bias = static_cast<half>(0.5); };
void take(half) {}
half mean(half a, float b, double c) {
  half x = static_cast<half>(1.0); take(static_cast<half>(c)); P p;
  return static_cast<half>((a + b + x * p.scale + p.bias) * 0.5);
}
"""


def _candidates() -> list[str]:
    override = os.environ.get("NPUKB_CXX")
    if override:
        return [override]
    return [name for name in COMPILER_NAMES if shutil.which(name)]


@functools.lru_cache(maxsize=4)
def _probe(path: str) -> Compiler | str:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return (f"C++ compiler {path!r} cannot run: {exc}; install g++ (`apt-get install g++`) or clang++, "
                "or set NPUKB_CXX to an installed C++17 compiler")
    if out.returncode != 0:
        return f"C++ compiler {path!r} failed on --version: {out.stderr.strip()[:200]}"
    first = (out.stdout.strip().splitlines() or ["unknown"])[0]
    resolved = shutil.which(path) or path
    return Compiler(path=resolved, version=first, identity=_identity(resolved, first))


@functools.lru_cache(maxsize=4)
def half_conversion_problem(compiler: Compiler) -> str | None:
    """Why ``compiler`` cannot stand in for the device compiler's ``half``, or None when it can (or when
    it fails the control program too: then this is not the question, and its builds say what is)."""

    def compiles(source: str) -> subprocess.CompletedProcess | None:
        try:
            return subprocess.run([compiler.path, "-std=c++17", "-fsyntax-only", "-x", "c++", "-"], input=source,
                                  capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None

    out = compiles(HALF_PROBE)
    if out is None or out.returncode == 0:
        return None
    control = compiles(HALF_CONTROL)
    if control is None or control.returncode != 0:
        return None
    first = next((line for line in out.stderr.splitlines() if "error" in line), out.stderr.strip()[:200])
    return (f"{compiler.version} cannot compile the simulator's half as the device compiler does (AscendC "
            f"converts float and double to half implicitly; GCC 13 and later reject that for _Float16 under C++23's "
            f"rules): {first.strip()[:160]}; install g++-12 or clang++ (e.g. `apt-get install g++-12`) and set "
            "NPUKB_CXX to it")


def find_compiler() -> Compiler | str:
    """The compiler to use: the first candidate that runs and handles ``half`` as the device compiler
    does; or a sentence saying why none is usable."""
    names = _candidates()
    if not names:
        return ("no C++17 compiler found: install clang++ or g++ (e.g. `apt-get install g++`) "
                "or point NPUKB_CXX at one")
    problems: list[str] = []
    for name in names:
        found = _probe(name)
        problem = found if isinstance(found, str) else half_conversion_problem(found)
        if problem is None:
            return found
        problems.append(problem)
    return problems[0] if len(problems) == 1 else "; ".join(problems)


# Kernel-TU instrumentation: every load/store becomes a hook call (no shadow memory, no stack or
# global redzones), every function the simulator's headers define reports entry and exit.
# Every basic block reports itself too (``-fsanitize-coverage=trace-pc``): the kernel's own scalar code
# is priced per executed block (docs/cost-model.md, "Scalar code").
RAW_ACCESS_BASE_FLAGS: tuple[str, ...] = (
    "-fsanitize=kernel-address", "--param=asan-instrumentation-with-call-threshold=0",
    "--param=asan-stack=0", "--param=asan-globals=0", "-finstrument-functions", "-fsanitize-coverage=trace-pc")
# The candidate's files (compiled as ``op_kernel/...`` in every pass) and the generated preludes
# (``npukb_build.h``, or one per core type for a kernel built in a cube and a vector pass, whose
# trampolines call the kernel) are never simulator code.
CANDIDATE_PATH_MARKERS: tuple[str, ...] = ("op_kernel/", "npukb_build.h", "npukb_build_aic.h", "npukb_build_aiv.h")


class InstrumentationError(RuntimeError):
    """The raw-access instrumentation cannot tell the simulator's headers from other code here."""


def is_gcc(compiler: Compiler) -> bool:
    return "clang" not in compiler.version.lower()


# The simulator's half is _Float16. Without an instruction for it, every conversion between half and
# float is a libgcc call (__extendhfsf2 / __truncsfhf2), about ten times slower than the F16C instruction
# x86-64 CPUs have had since 2012 (a half add loop: 22 ns against 2.4 ns per element at -O1). Both round
# to nearest even and produce the same bits (tests/toolchain/test_isa_flags.py compares every half and a
# sweep of floats; in arithmetic only which payload a NaN result of two NaN operands keeps may differ, as
# it does with any change of code generation), so the instruction is used where this machine's CPU and
# the compiler have it.
F16C_FLAGS: tuple[str, ...] = ("-mf16c",)


def _cpu_has(feature: str, cpuinfo: str = "/proc/cpuinfo") -> bool:
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return feature in line.split(":", 1)[-1].split()
    except OSError:
        return False
    return False


@functools.lru_cache(maxsize=4)
def isa_flags(compiler: Compiler) -> tuple[str, ...]:
    """Instruction-set flags for the kernel TU and the simulator's runtime on this machine: F16C_FLAGS
    when the CPU has F16C and the compiler accepts them for this target, else (). Part of every build's
    and the runtime's cache key."""
    if not _cpu_has("f16c"):
        return ()
    try:
        out = subprocess.run([compiler.path, *F16C_FLAGS, "-x", "c++", "-fsyntax-only", "-"],
                             input="float f(_Float16 h) { return h; }\n", capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return F16C_FLAGS if out.returncode == 0 and not out.stderr.strip() else ()


@functools.lru_cache(maxsize=4)
def system_include_dirs(compiler: Compiler) -> tuple[str, ...]:
    """The compiler's ``#include <...>`` search directories, spelled as it spells header paths."""
    try:
        out = subprocess.run([compiler.path, "-xc++", "-E", "-v", "-"], input="", capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstrumentationError(f"cannot ask {compiler.path} for its include directories: {exc}") from None
    dirs: list[str] = []
    inside = False
    for line in out.stderr.splitlines():
        if line.startswith("#include <...> search starts here:"):
            inside = True
        elif line.startswith("End of search list."):
            break
        elif inside and line.startswith(" "):
            dirs.append(line.strip().removesuffix(" (framework directory)"))
    if not dirs:
        raise InstrumentationError(f"{compiler.path} -E -v printed no include search list")
    return tuple(dirs)


def raw_access_flags(compiler: Compiler, include_dir: str) -> tuple[str, ...]:
    """Flags that make the kernel TU report its own memory accesses; () when the compiler cannot
    (clang: raw accesses are then not costed, and builds say so). ``include_dir`` is the simulator's
    header folder: no excluded path may occur in it, or its code would be costed as the kernel's."""
    if not is_gcc(compiler):
        return ()
    excluded = (*CANDIDATE_PATH_MARKERS, *(d.rstrip("/") + "/" for d in system_include_dirs(compiler)))
    probe = include_dir.rstrip("/") + "/npukb_sim/kernel/state.h"
    clash = [e for e in excluded if e in probe]
    if clash or any("," in e for e in excluded):
        raise InstrumentationError(
            f"the simulator's headers ({include_dir}) lie under {clash[0] if clash else 'a path with a comma'}: "
            "raw-access costing cannot tell them from the candidate's or the C++ library's code; install "
            "npukernelbench elsewhere")
    return (*RAW_ACCESS_BASE_FLAGS, "-finstrument-functions-exclude-file-list=" + ",".join(excluded))


def _library_symbols(compiler: Compiler, print_option: str, what: str, dynamic: bool) -> frozenset[str]:
    """The global symbols a library the compiler names (``-print-libgcc-file-name``,
    ``-print-file-name=libm.so.6``) defines. Raises InstrumentationError when the compiler or nm cannot say."""
    try:
        out = subprocess.run([compiler.path, print_option], capture_output=True, text=True, timeout=30)
        library = out.stdout.strip()
        if out.returncode != 0 or not library or not os.path.isfile(library):
            raise InstrumentationError(f"{compiler.path} {print_option} names no {what} "
                                       f"({library or out.stderr.strip()[:200]})")
        nm = shutil.which("nm")
        if nm is None:
            raise InstrumentationError(f"nm (GNU binutils) is needed to read the {what}")
        listing = subprocess.run([nm, *(["-D"] if dynamic else []), "-g", "--defined-only", "--format=posix", library],
                                 capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstrumentationError(f"cannot list the {what}: {exc}") from None
    names = set()
    for line in listing.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.rstrip().endswith(":") and parts[1] not in ("U", "w", "v"):
            names.add(parts[0].split("@")[0])
    if not names:
        raise InstrumentationError(f"nm lists no symbol in {library}")
    return frozenset(names)


@functools.lru_cache(maxsize=4)
def support_library_symbols(compiler: Compiler) -> frozenset[str]:
    """The routines of the compiler's support library (libgcc, or clang's builtins library): what
    compiled code may call without any runtime library (128-bit division, half-precision conversion)."""
    return _library_symbols(compiler, "-print-libgcc-file-name", "compiler's support library", dynamic=False)


@functools.lru_cache(maxsize=4)
def math_library_symbols(compiler: Compiler) -> frozenset[str]:
    """The functions of the C math library (libm) the compiler links host code against."""
    return _library_symbols(compiler, "-print-file-name=libm.so.6", "C math library", dynamic=True)

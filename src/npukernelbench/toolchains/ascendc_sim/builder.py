"""Building one operator project into the shared object the simulator's launcher loads.

Steps (each compiler and host-code run confined by ``npukernelbench.sandbox``):

1. compile every host source (``op_host/*.cpp`` / ``*.cc``, as CANN's op project build does, except
   the operator-API library sources: ``aclnn_*.cpp``, ``*_l0.cpp`` and any source that includes
   opdev's executor, aclnn or level-0 headers, ``extract.host_sources``);
2. link them into a *describe* shared object and have the launcher load it (``launcher describe``):
   it prints the registered tiling classes and OpDefs with their signatures (``kernel_prelude``).
   Steps 1-2 alone are :func:`describe` (cached per host sources; the build reuses its host objects);
3. generate the force-included kernel header (DTYPE macros, tiling struct, entry trampoline);
4. compile ``op_kernel/<kernel>.cpp`` with it (kernel TU);
5. link host objects + kernel object into ``candidate.so``.

The candidate's code is never linked into an executable: its static initialisers (however spelt)
would run before ``main``. The launcher (the runtime objects linked into one executable that exports
the runtime's API to the shared object) loads it with ``dlopen`` after confining itself
(docs/security.md). Host and kernel TUs are compiled position-independent for that. Every shared
object is linked with ``--no-undefined`` against a stub that defines the runtime's exported symbols
(``npukb_runtime_api.o``, never loaded: the launcher's own definitions win at load time), so an
undefined or doubly defined symbol is the link error it was in an executable.

The runtime (launcher, stub) is compiled once per (compiler, simulator version) and cached; host and
kernel TUs force-include a per-machine precompiled header of the simulator headers they include
(``precompiled_header``) when one is usable.

Only outcomes that the sources alone determine are cached: a successful build and a genuine
compiler (or host-code) diagnostic. A time-out may be the machine's load and is not cached; a
failure of our machinery (the confinement wrapper, a missing or crashing compiler, a full scratch
disk, a process killed from outside) raises :class:`~npukernelbench.infrastructure.InfrastructureError`
and leaves nothing behind. The cache key covers the sources, the flags, the compiler's identity
(version line, resolved binary, its size and modification time), the simulator's sources, the
diagnostics classifier and the confinement level.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from npukernelbench import diagnostics, extract
from npukernelbench.confinement import BOUNDARY_DIR, confinement_level
from npukernelbench.extract import host_sources
from npukernelbench.infrastructure import InfrastructureError, compiler_crash, disk_error, disk_trouble
from npukernelbench.result import ErrorCategory
from npukernelbench.sandbox import Limits, ProcessOutcome, Request, clean_env, run_confined
from npukernelbench.toolchains.ascendc_sim import (
    device_dialect,
    device_symbols,
    host_symbols,
    kernel_passes,
    kernel_prelude,
    precompiled_header,
    self_test,
    symbol_trace,
    template_kernel,
    tiling_fields,
)
from npukernelbench.toolchains.ascendc_sim.build_cache import BuildCache
from npukernelbench.toolchains.ascendc_sim.compiler import (
    FLAGS,
    HOST_FLAGS,
    KERNEL_FLAGS,
    LINK_FLAGS,
    Compiler,
    InstrumentationError,
    isa_flags,
    math_library_symbols,
    raw_access_flags,
    support_library_symbols,
    system_include_dirs,
)
from npukernelbench.toolchains.ascendc_sim.sources import (
    INCLUDE_DIR,
    RUNTIME_DIR,
    RUNTIME_EXTRA_FLAGS,
    RUNTIME_INTERNAL_PREFIXES,
    RUNTIME_SOURCES,
    simulator_version,
)
from npukernelbench.toolchains.base import BuildResult, HostDescription, KernelProject

BUILDER_VERSION = "5"
LIBRARY = "candidate.so"                 # the build's artifact: what the launcher loads
DESCRIBE_LIBRARY = "describe.so"
LAUNCHER = "launcher"
API_STUB = "npukb_runtime_api.o"
PRELUDE = "npukb_build.h"
# Host and kernel TUs go into a shared object: position-independent, with the optimisations of an
# executable's code (calls between the candidate's own functions are not interposable).
PIC_FLAGS: tuple[str, ...] = ("-fPIC", "-fno-semantic-interposition")
HOST_COMPILE_FLAGS: tuple[str, ...] = (*HOST_FLAGS, *PIC_FLAGS)
LIBRARY_LINK_FLAGS: tuple[str, ...] = (*LINK_FLAGS, "-shared", "-Wl,--no-undefined")
# nm symbol types the launcher exports to the candidate's shared object: its strong definitions
# (code, data, bss, read-only), GNU unique objects (static locals of inline functions, inline
# variables) and weak objects (vtables and typeinfo of the runtime's classes), never its weak copies
# of inline functions (the candidate keeps its own, instrumented in the kernel TU).
_EXPORTED_TYPES = frozenset("TDBRGSuV")
_WEAK_IN_STUB = frozenset("uV")
# compiler-generated hidden symbols, and the runtime's internal namespaces (shared between its objects only)
_HIDDEN_PREFIXES = ("DW.ref.", *RUNTIME_INTERNAL_PREFIXES)
COMPILE_LIMITS = Limits(cpu_s=300, memory_bytes=6 << 30, wall_s=240.0)
DESCRIBE_LIMITS = Limits(cpu_s=20, memory_bytes=2 << 30, wall_s=20.0)


class StepFailure(Exception):
    """A build step failed: the message is already trimmed for humans."""

    def __init__(self, diagnostics: str, category: ErrorCategory, timed_out: bool = False):
        super().__init__(diagnostics)
        self.diagnostics = diagnostics
        self.category = category
        self.timed_out = timed_out


@functools.lru_cache(maxsize=1)
def _classifier_version() -> str:
    """Failed builds are cached with their error class: a changed classifier must not reuse them."""
    return hashlib.sha256(Path(diagnostics.__file__).read_bytes()).hexdigest()[:16]


# The memory functions the compiler calls for the kernel TU's own copies (struct assignments, array
# initialisers, the builtins behind std::copy): the instrumentation does not see into them, so the kernel
# object calls the runtime's costed versions instead (runtime/raw_access.cpp).
RAW_MEMORY_FUNCTIONS = ("memcpy", "memmove", "memset", "memcmp", "mempcpy", "bcopy", "bzero")


def redefine_raw_memory_functions(obj: str) -> list[str]:
    """The objcopy command that points ``obj``'s calls of RAW_MEMORY_FUNCTIONS at npukb_raw_<name> (in
    place: ``obj`` is relative to the folder it runs in, which the confinement binds writable). The line
    tables stay: reports name the kernel line of a call from them (call_sites.py)."""
    objcopy = shutil.which("objcopy") or "objcopy"
    return [objcopy, *(f"--redefine-sym={n}=npukb_raw_{n}" for n in RAW_MEMORY_FUNCTIONS), obj]


def _binutils() -> dict[str, str]:
    tools = {name: shutil.which(name) for name in symbol_trace.TOOLS}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        raise InfrastructureError(f"ascendc-sim build: {', '.join(missing)} (GNU binutils) is needed to check "
                                  "what an object calls; install binutils")
    return {name: path for name, path in tools.items() if path}


def _tool_runner(folder: Path, timings: dict[str, float], step: str) -> symbol_trace.Run:
    """Runs binutils on objects our compiler wrote: a failure is our machinery's, not the candidate's.
    Their output (an addr2line run over every call site: hundreds of KB) goes to a file in ``folder``,
    not through the confinement's capped pipe."""
    shell = shutil.which("sh") or "/bin/sh"
    listing = folder / "symbol_trace_output.txt"

    def run(argv: list[str], what: str) -> str:
        out = _run([shell, "-c", 'exec "$@" > "$0"', str(listing), *argv], folder, COMPILE_LIMITS, timings, step,
                   what=what)
        try:
            if not out.ok:
                why = disk_trouble(folder, out.stderr) or out.stderr.strip()[-300:] or f"exit status {out.returncode}"
                raise InfrastructureError(f"ascendc-sim build ({what}): {why}")
            try:
                return listing.read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise InfrastructureError(f"ascendc-sim build ({what}): cannot read its output: {exc}") from exc
        finally:
            listing.unlink(missing_ok=True)
    return run


def _device_calls(obj: Path, pass_src: Path, folder: Path, compiler: Compiler, runtime: Sequence[str],
                  timings: dict[str, float]) -> list[device_symbols.DeviceCall]:
    """The calls of a compiled kernel pass's own code that the device cannot link (device_symbols.py)."""
    tools = _binutils()
    try:
        library = device_symbols.device_library((Path(p) for p in runtime), support_library_symbols(compiler))
        roles = symbol_trace.source_roles(pass_src, folder, INCLUDE_DIR, system_include_dirs(compiler),
                                          (device_symbols.DEVICE_LIBC_HEADER,))
        return device_symbols.device_calls(obj, folder, library, _host_library(compiler, runtime), roles,
                                           _tool_runner(folder, timings, "device_check"), tools)
    except (InstrumentationError, symbol_trace.elf_object.ElfError) as exc:
        raise InfrastructureError(f"ascendc-sim build (device-symbol check): {exc}") from exc


def _host_library(compiler: Compiler, runtime: Sequence[str]) -> frozenset[str]:
    return host_symbols.host_library((Path(p) for p in runtime), support_library_symbols(compiler),
                                     math_library_symbols(compiler))


def _host_calls(obj: Path, src: Path, folder: Path, compiler: Compiler, runtime: Sequence[str], own: frozenset[str],
                timings: dict[str, float]) -> list[host_symbols.HostCall]:
    """The calls of the project's own host code in ``obj`` outside what host code may link (host_symbols.py);
    ``own``: what the project's host objects define."""
    tools = _binutils()
    try:
        library = _host_library(compiler, runtime) | own
        roles = symbol_trace.source_roles(src, folder, INCLUDE_DIR, system_include_dirs(compiler))
        return host_symbols.host_calls(obj, folder, library, roles, _tool_runner(folder, timings, "host_check"), tools)
    except (InstrumentationError, symbol_trace.elf_object.ElfError) as exc:
        raise InfrastructureError(f"ascendc-sim build (host-symbol check): {exc}") from exc


def _raw_flags(compiler: Compiler, raw_access: bool) -> tuple[str, ...]:
    """The raw-access instrumentation flags of every kernel compile pass (none when ``raw_access`` is off)."""
    return raw_access_flags(compiler, str(INCLUDE_DIR)) if raw_access else ()


@functools.lru_cache(maxsize=1)
def _build_logic_version() -> str:
    """The Python that shapes what gets compiled (source rewrites, passes, prelude, this module): a
    change to it must not reuse builds made by the old logic."""
    digest = hashlib.sha256()
    for module in (device_dialect, device_symbols, host_symbols, symbol_trace, symbol_trace.elf_object,
                   kernel_passes, kernel_prelude, template_kernel, extract):
        digest.update(Path(module.__file__).read_bytes())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def build_key(project: KernelProject, compiler: Compiler, raw_access: bool = True) -> str:
    payload = {
        "builder": BUILDER_VERSION,
        "op": project.op,
        "kernel": project.kernel,
        "files": sorted(project.files.items()),
        "params": [[p.name, p.role, p.param_type, p.dtype] for p in project.params],
        "flags": FLAGS,
        "kernel_flags": (*KERNEL_FLAGS, *PIC_FLAGS, *isa_flags(compiler), *_raw_flags(compiler, raw_access)),
        "host_flags": HOST_COMPILE_FLAGS,
        "link": LIBRARY_LINK_FLAGS,
        "compiler": compiler.identity or compiler.version,
        "simulator": simulator_version(),
        "classifier": _classifier_version(),
        "confinement": confinement_level(),
        "logic": _build_logic_version(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _clean(log: str, folder: Path, pch_root: Path | None = None) -> str:
    """Compiler output with the build's scratch paths, the simulator include path and the
    precompiled-header folder removed."""
    log = log.replace(f"{folder}/src/", "").replace(f"{folder}/", "").replace(f"{INCLUDE_DIR}/", "")
    return log.replace(f"{pch_root}/", "") if pch_root is not None else log


def _run(argv: list[str], cwd: Path, limits: Limits, timings: dict[str, float] | None = None,
         step: str = "", readable: tuple[Path, ...] = (), what: str = "", phases: bool = False) -> ProcessOutcome:
    """One confined step (``what`` names it in messages); raises InfrastructureError when our
    machinery failed. ``phases``: the command is the launcher, which reports on the phase channel."""
    outcome = run_confined(Request(argv=argv, cwd=cwd, limits=limits, env=clean_env(),
                                   readable=(*readable, *_toolchain_prefix(argv[0])), phase_to_command=phases))
    if timings is not None:
        timings[step] = round(timings.get(step, 0.0) + outcome.seconds, 3)
    if outcome.infrastructure:
        raise InfrastructureError(f"ascendc-sim build ({what or step or Path(argv[0]).name}): "
                                  f"{outcome.infrastructure}")
    return outcome


def crash_line(stderr: str) -> str:
    """The launcher's last "npukb: " line (the crash handler's: which block or step, which system call)."""
    for line in reversed(stderr.splitlines()):
        if line.startswith("npukb: "):
            return line[len("npukb: "):].rsplit(" (signal", 1)[0]
    return ""


def death_note(signal_name: str | None, stderr: str) -> str:
    """" (where and why)" for a launcher that died of ``signal_name``: the crash handler's line; for
    SIGSYS, the boundary's seccomp policy trapped a system call (named when the handler could run)."""
    where = crash_line(stderr)
    if signal_name == "SIGSYS" and "forbidden system call" not in where:
        where = ("forbidden system call (candidate code may not start programs or processes, open sockets, trace "
                 "or signal other processes)" + (f"; {where}" if where else ""))
    return f" ({where})" if where else ""


def _toolchain_prefix(program: str) -> tuple[Path, ...]:
    """The installation a compiler outside the system directories lives in (its libexec, its
    headers): the confinement lets the compile read it."""
    real = Path(os.path.realpath(program))
    if not real.is_absolute() or real.parts[1:2] in (("usr",), ("bin",), ("lib",)) or len(real.parts) < 4:
        return ()
    return (real.parent.parent,)


def _compile_failure(outcome: ProcessOutcome, folder: Path, what: str, cache: BuildCache | None = None,
                     pch: tuple[Path, ...] = ()) -> StepFailure:
    """The StepFailure of a failed compile or link; raises InfrastructureError when the compiler
    crashed, the scratch disk is full or the precompiled header the compile was given (its folder in
    ``pch``) is gone (removed by ``npukb cache clear`` or by hand meanwhile: the sandbox lets a
    candidate read it, never remove it)."""
    if outcome.timed_out:
        return StepFailure(f"{what}: the compiler exceeded its time limit", ErrorCategory.OTHER, timed_out=True)
    crash = compiler_crash(outcome)
    if crash:
        raise InfrastructureError(f"ascendc-sim build ({what}): {crash}")
    gone = [str(p) for p in pch if not (p / precompiled_header.STUB).is_file()]
    if gone:
        raise InfrastructureError(f"ascendc-sim build ({what}): the precompiled header {gone[0]} was removed "
                                  "during the build")
    log = _clean(outcome.stderr + outcome.stdout, folder, cache.root / "pch" if cache is not None else None)
    disk = disk_trouble(folder, log)
    if disk:
        raise InfrastructureError(f"ascendc-sim build ({what}): {disk}")
    if outcome.signal_name:
        log = f"{what}: the compiler died of {outcome.signal_name} ({outcome.limit} limit)\n{log}"
    return StepFailure(diagnostics.trim(log), diagnostics.classify(log))


@dataclass(frozen=True)
class Runtime:
    """The simulator's runtime for one compiler: the launcher executable, the link stub of its API and
    its objects (kept: the device- and host-symbol checks read what each defines)."""

    launcher: Path
    api_stub: Path
    objects: tuple[Path, ...]


def _runtime_folder(compiler: Compiler, cache: BuildCache) -> Path:
    key = (f"{compiler.identity or compiler.version}\0{simulator_version()}\0{FLAGS}{isa_flags(compiler)}\0"
           f"{RUNTIME_EXTRA_FLAGS}\0"
           f"{LINK_FLAGS}\0{BUILDER_VERSION}\0{_boundary_version()}")
    return cache.root / "runtime" / hashlib.sha256(key.encode()).hexdigest()[:24]


@functools.lru_cache(maxsize=1)
def _boundary_version() -> str:
    """The launcher compiles the boundary's header in: a change to it must rebuild the runtime."""
    return hashlib.sha256((BOUNDARY_DIR / "npukb_boundary.h").read_bytes()).hexdigest()[:16]


def runtime(compiler: Compiler, cache: BuildCache) -> Runtime:
    """The launcher and the API stub for this compiler and simulator version (built once per machine,
    then cached; the runtime sources compile in parallel), after the toolchain's self-test has passed
    with them (self_test.py: once per runtime, its result kept beside it). Raises InfrastructureError
    when the runtime does not build or this compiler fails the self-test."""
    parts = _runtime_parts(compiler, cache)
    _self_test(compiler, cache, parts)
    return parts


SELF_TEST_MARK = "self_test.passed"
_SELF_TEST_FAILED: dict[Path, str] = {}     # per runtime folder: why (one attempt per process)


def _self_test(compiler: Compiler, cache: BuildCache, parts: Runtime) -> None:
    """Build the known-good operator of self_test.py through every step and check a candidate's build
    goes through; a failure is this machine's (InfrastructureError), and is never blamed on a candidate."""
    folder_of_runtime = parts.launcher.parent
    mark = folder_of_runtime / SELF_TEST_MARK
    if mark.is_file():
        return
    why = _SELF_TEST_FAILED.get(folder_of_runtime)
    if why is None:
        folder = _scratch(cache, "self-test-")
        try:
            _steps(self_test.project(), compiler, cache, folder, {}, True, parts)
        except StepFailure as failure:
            why = " ".join(failure.diagnostics.split())[:600] or failure.category.value
            if not failure.timed_out:       # a loaded machine may do better next time
                _SELF_TEST_FAILED[folder_of_runtime] = why
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if why is not None:
        raise InfrastructureError(f"ascendc-sim: the compiler {compiler.path} ({compiler.version}) fails the "
                                  "toolchain's self-test, so no build on this machine can be judged: a known-good "
                                  f"operator does not build with it: {why}")
    self_test.record_pass(mark, f"{compiler.identity or compiler.version}\n", "self-test")


def _runtime_parts(compiler: Compiler, cache: BuildCache) -> Runtime:
    """The runtime for this compiler and simulator version, built when missing (no self-test)."""
    target = _runtime_folder(compiler, cache)
    built = Runtime(launcher=target / LAUNCHER, api_stub=target / API_STUB,
                    objects=tuple(target / f"{src.stem}.o" for src in RUNTIME_SOURCES))
    if built.launcher.is_file() and built.api_stub.is_file() and all(o.is_file() for o in built.objects):
        return built
    folder = _scratch(cache, "runtime-")
    try:
        with ThreadPoolExecutor(max_workers=len(RUNTIME_SOURCES)) as pool:
            outs = list(pool.map(lambda src: _run([compiler.path, *FLAGS, *isa_flags(compiler),
                                                   *RUNTIME_EXTRA_FLAGS.get(src.stem, ()),
                                                   "-I", str(INCLUDE_DIR), "-I", str(BOUNDARY_DIR), "-c", str(src),
                                                   "-o", f"{src.stem}.o"],
                                                  folder, COMPILE_LIMITS, step=f"runtime {src.name}",
                                                  readable=(RUNTIME_DIR, BOUNDARY_DIR)),
                                 RUNTIME_SOURCES))
        for src, out in zip(RUNTIME_SOURCES, outs, strict=True):
            if not out.ok:
                why = compiler_crash(out) or disk_trouble(cache.root, out.stderr) or out.stderr[-4000:]
                raise InfrastructureError(f"ascendc-sim: the simulator's own {src.name} does not compile with "
                                          f"{compiler.path}: {why}")
        _link_runtime(compiler, folder, [f"{src.stem}.o" for src in RUNTIME_SOURCES])
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(folder, target)
    except OSError:             # another worker published first
        shutil.rmtree(folder, ignore_errors=True)
    return built


def _link_runtime(compiler: Compiler, folder: Path, objects: list[str]) -> None:
    """Link the launcher (exporting the runtime's strong and unique symbols, nothing else) and
    assemble the API stub (the same symbols, defined empty) in ``folder``; keep the objects."""
    nm = shutil.which("nm")
    if nm is None:
        raise InfrastructureError("ascendc-sim needs nm (GNU binutils) to link its launcher; install binutils")
    symbols: dict[str, str] = {}
    # One listing per object: a child's output is kept up to sandbox.OUTPUT_LIMIT only, and a listing
    # cut short would silently drop exports (the candidate would then fail to link).
    for obj in objects:
        listed = _run([nm, "-g", "--defined-only", obj], folder, COMPILE_LIMITS, what="listing the runtime's symbols")
        if not listed.ok or listed.truncated:
            why = "its listing is longer than the output kept" if listed.ok else listed.stderr[-500:]
            raise InfrastructureError(f"ascendc-sim: nm failed on the runtime object {obj}: {why}")
        for line in listed.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in _EXPORTED_TYPES and not parts[2].startswith(_HIDDEN_PREFIXES):
                symbols.setdefault(parts[2], parts[1])
    _write(folder / "launcher.dynlist", "{\n" + "".join(f'  "{name}";\n' for name in sorted(symbols)) + "};\n")
    _write(folder / "npukb_runtime_api.s", _api_stub_assembly(symbols))
    steps = (([compiler.path, *LINK_FLAGS, "-Wl,--dynamic-list=launcher.dynlist", *objects, "-o", LAUNCHER, "-ldl"],
              "linking the launcher"),
             ([compiler.path, "-c", "npukb_runtime_api.s", "-o", API_STUB], "assembling the runtime's API stub"))
    for argv, what in steps:
        out = _run(argv, folder, COMPILE_LIMITS, what=what)
        if not out.ok:
            why = compiler_crash(out) or disk_trouble(folder, out.stderr) or out.stderr[-4000:]
            raise InfrastructureError(f"ascendc-sim: {what} failed with {compiler.path}: {why}")
    (folder / "npukb_runtime_api.s").unlink(missing_ok=True)


def _api_stub_assembly(symbols: Mapping[str, str]) -> str:
    """Assembly defining every exported runtime symbol (functions and objects, unique and weak ones weak) at
    no address of consequence: the candidate links against it, the launcher's own definitions are
    what the loader binds."""
    lines = ["\t.text"]
    for name, kind in sorted(symbols.items()):
        bind = ".weak" if kind in _WEAK_IN_STUB else ".globl"
        sort = "%function" if kind == "T" else "%object"
        lines += [f'\t{bind} "{name}"', f'\t.type "{name}", {sort}', f'"{name}":']
    lines.append('\t.section .note.GNU-stack,"",%progbits')
    return "\n".join(lines) + "\n"


def runtime_ready(compiler: Compiler, cache: BuildCache) -> bool:
    """Whether the runtime is built and has passed the self-test."""
    folder = _runtime_folder(compiler, cache)
    return (folder / LAUNCHER).is_file() and (folder / API_STUB).is_file() and (folder / SELF_TEST_MARK).is_file() \
        and all((folder / f"{src.stem}.o").is_file() for src in RUNTIME_SOURCES)


def prepare(compiler: Compiler, cache: BuildCache, projects: Sequence[Mapping[str, str]],
            report: Callable[[str], None], raw_access: bool = True) -> bool:
    """Build once, with a progress line, what the builds of ``projects`` (their file maps) will
    need: the runtime objects and the precompiled headers of their header sets, with the flags those
    builds compile with (``raw_access`` as theirs). Returns whether anything had to be built. Raises
    InfrastructureError when the runtime does not compile."""
    sets = sorted({(folder, flags, headers) for files in projects
                   for folder, flags in (("op_host", HOST_COMPILE_FLAGS),
                                         ("op_kernel", _kernel_compile_flags(kernel_passes.plan(files), compiler,
                                                                             raw_access)))
                   if (headers := precompiled_header.simulator_includes(files, folder)) is not None})
    todo = [(flags, headers) for _, flags, headers in sets
            if not precompiled_header.settled(compiler, cache, flags, headers)]
    need_runtime = not runtime_ready(compiler, cache)
    if not todo and not need_runtime:
        return False
    report(f"npukernelbench: first use of this compiler/simulator version: building the simulator runtime"
           f"{' and' if need_runtime else ''} {len(todo)} precompiled header(s) in {cache.root} "
           "(cached afterwards; the time it takes follows when done)")
    if need_runtime:
        runtime(compiler, cache)        # with the self-test
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda job: precompiled_header.precompiled_header(compiler, cache, *job), todo))
    return True


def _pch_args(project: KernelProject, compiler: Compiler, cache: BuildCache, flags: tuple[str, ...],
              folder_name: str) -> tuple[list[str], tuple[Path, ...]]:
    """``-include`` arguments of the precompiled header for the TUs of ``folder_name`` (op_host or
    op_kernel), and the folder the sandbox must let them read; nothing when none is usable."""
    headers = precompiled_header.simulator_includes(project.files, folder_name)
    if headers is None:
        return [], ()
    stub = precompiled_header.precompiled_header(compiler, cache, flags, headers)
    if stub is None:
        return [], ()
    return ["-include", str(stub)], (stub.parent,)


def _safe_relative(name: str) -> PurePosixPath:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise StepFailure(f"project file name {name!r} is not a relative path inside the project",
                          ErrorCategory.OTHER)
    return path


def _scratch(cache: BuildCache, prefix: str) -> Path:
    try:
        return cache.scratch(prefix)
    except OSError as exc:
        raise disk_error(exc, f"cannot create a build folder under {cache.root}") or \
            InfrastructureError(f"cannot create a build folder under {cache.root}: {exc}") from exc


def _write(path: Path, text: str) -> None:
    """Write one file of ours into the build folder; a full disk is an InfrastructureError."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        infra = disk_error(exc, f"cannot write {path.name}")
        if infra is not None:
            raise infra from exc
        raise StepFailure(f"cannot write project file {path.name}: {exc.strerror or exc}", ErrorCategory.OTHER) \
            from None


def _write_sources(project: KernelProject, src: Path, core: str = "AIV", cxx20: bool = False,
                   kernel_only: bool = False) -> list[str]:
    """Write the project under ``src``, kernel files as the ``core`` compile pass sees them
    (``device_dialect``); returns the host translation units."""
    hosts: list[str] = []
    compiled = set(host_sources(project.files))
    for name, text in project.files.items():
        rel = _safe_relative(name)
        if kernel_only and rel.parts[0] != "op_kernel":
            continue
        path = src.joinpath(*rel.parts)
        if rel.parts[0] == "op_kernel":
            text = device_dialect.rewrite(text, core, cxx20).text
            if rel.as_posix() == f"op_kernel/{project.kernel}.cpp":
                text += kernel_prelude.kernel_epilogue(project)
        _write(path, text)
        if rel.as_posix() in compiled:
            hosts.append(rel.as_posix())
    return sorted(hosts)


def _host_files(project: KernelProject) -> list[tuple[str, str]]:
    return sorted((n, t) for n, t in project.files.items() if PurePosixPath(n).parts[:1] == ("op_host",))


def describe_key(project: KernelProject, compiler: Compiler) -> str:
    """Cache key of the host side alone: every op_host file (sources and headers), not the kernel."""
    payload = {"describe": BUILDER_VERSION, "files": _host_files(project), "host_flags": HOST_COMPILE_FLAGS,
               "link": LIBRARY_LINK_FLAGS, "compiler": compiler.identity or compiler.version,
               "simulator": simulator_version(), "classifier": _classifier_version(),
               "confinement": confinement_level(),
               "logic": _build_logic_version()}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _copy(source: Path, target: Path) -> None:
    """Copy an object of a published describe step; a full disk is an InfrastructureError."""
    try:
        shutil.copyfile(source, target)
    except OSError as exc:
        raise disk_error(exc, f"cannot copy {source.name}", target.parent) or \
            InfrastructureError(f"cannot copy the cached host object {source}: {exc}") from exc


def _host_steps(project: KernelProject, compiler: Compiler, cache: BuildCache, folder: Path,
                timings: dict[str, float], parts: Runtime, reuse: Path | None = None, known: str | None = None
                ) -> tuple[list[str], kernel_prelude.Description, str]:
    """Compile the host sources (or reuse the objects of a published describe step in ``reuse``), link
    and run the describe binary (or take its published output ``known`` with the reused objects).
    Returns the host objects, the parsed description and its raw text."""
    src = folder / "src"
    hosts = _write_sources(project, src)
    if not hosts:
        raise StepFailure("the project has no op_host/*.cpp file (host code with the OpDef and TilingFunc)",
                          ErrorCategory.SYNTAX_STRUCTURE)
    host_objects = []
    if reuse is not None and all((reuse / f"host_{i}.o").is_file() for i in range(len(hosts))):
        for i in range(len(hosts)):
            _copy(reuse / f"host_{i}.o", folder / f"host_{i}.o")
            host_objects.append(f"{folder}/host_{i}.o")
        if known is not None:
            try:
                return host_objects, kernel_prelude.parse_description(known), known
            except kernel_prelude.DescribeError:
                pass                    # an entry this version cannot read: describe again
    else:
        include = ["-I", str(INCLUDE_DIR)]
        host_pch, host_readable = _pch_args(project, compiler, cache, HOST_COMPILE_FLAGS, "op_host")
        for i, host in enumerate(hosts):
            obj = f"{folder}/host_{i}.o"
            out = _run([compiler.path, *HOST_COMPILE_FLAGS, *include, "-I", "op_host", *host_pch, "-c", host, "-o",
                        obj], src, COMPILE_LIMITS, timings, "host", host_readable, what=f"compiling {host}")
            if not out.ok:
                raise _compile_failure(out, folder, f"compiling {host}", cache, host_readable)
            host_objects.append(obj)
        # Each host object may use what the project's other host sources define.
        own = frozenset().union(*(symbol_trace.defined_globals(Path(o)) for o in host_objects))
        for host, obj in zip(hosts, host_objects, strict=True):
            calls = _host_calls(Path(obj), src, folder, compiler, parts.objects, own, timings)
            if calls:
                raise StepFailure(host_symbols.report(calls, f"compiling {host}"), ErrorCategory.API_SIGNATURE)
    out = _run([compiler.path, *LIBRARY_LINK_FLAGS, *host_objects, str(parts.api_stub), "-o", DESCRIBE_LIBRARY],
               folder, COMPILE_LIMITS, timings, "describe", what="linking the host code")
    if not out.ok:
        raise _compile_failure(out, folder, "linking the host code")
    described = _run([str(parts.launcher), "describe", str(folder / DESCRIBE_LIBRARY)], folder, DESCRIBE_LIMITS,
                     timings, "describe", what="running the host code's registration", phases=True)
    if not described.ok and not described.reached("candidate"):
        # the launcher failed before it loaded the host code: ours, never the candidate's
        raise InfrastructureError(f"ascendc-sim build (describe): the launcher failed before it loaded the host "
                                  f"code: {described.stderr.strip()[-500:] or described.signal_name}")
    if not described.ok:
        disk = disk_trouble(folder, described.stderr)
        if disk:
            raise InfrastructureError(f"ascendc-sim build (describe): {disk}")
        why = (f"died of {described.signal_name}{death_note(described.signal_name, described.stderr)}"
               if described.signal_name else
               "timed out" if described.timed_out else f"exited with {described.returncode}")
        raise StepFailure(f"the host code's static initialisation {why}:\n{described.stderr[-2000:]}",
                          ErrorCategory.OTHER, timed_out=described.timed_out)
    try:
        desc = kernel_prelude.parse_description(described.stdout)
    except kernel_prelude.DescribeError as exc:
        raise StepFailure(f"cannot read the registered tiling classes: {exc}", ErrorCategory.OTHER) from None
    return host_objects, desc, described.stdout


def describe(project: KernelProject, compiler: Compiler, cache: BuildCache) -> HostDescription:
    """Compile and describe the project's host side alone (cached per host sources): the OpDefs it
    registers with their signatures. The published entry keeps the host objects for the builds."""
    key = describe_key(project, compiler)
    record = cache.load(key)
    if record is None:
        folder = _scratch(cache, f"d{key[:12]}-")
        timings: dict[str, float] = {}
        try:
            _, _, text = _host_steps(project, compiler, cache, folder, timings, runtime(compiler, cache))
            record = {"ok": True, "describe": text, "diagnostics": "", "category": None, "timed_out": False}
        except StepFailure as failure:
            record = {"ok": False, "describe": "", "diagnostics": failure.diagnostics,
                      "category": failure.category.value, "timed_out": failure.timed_out}
        except BaseException:           # InfrastructureError (or an interrupt): nothing is kept
            shutil.rmtree(folder, ignore_errors=True)
            raise
        record["step_seconds"] = timings
        shutil.rmtree(folder / "src", ignore_errors=True)
        (folder / DESCRIBE_LIBRARY).unlink(missing_ok=True)
        if record["timed_out"]:
            shutil.rmtree(folder, ignore_errors=True)      # the machine's load, maybe: not cached
            return _description(record, cached=False)
        _publish(cache, key, folder, record)
        return _description(cache.load(key) or record, cached=False)
    return _description(record, cached=True)


def _description(record: dict, cached: bool) -> HostDescription:
    category = record.get("category")
    if not record.get("ok"):
        return HostDescription(ok=False, diagnostics=record.get("diagnostics", ""),
                               error_category=ErrorCategory(category) if category else None,
                               timed_out=bool(record.get("timed_out")), cached=cached)
    desc = kernel_prelude.parse_description(record.get("describe", ""))
    return HostDescription(ok=True, signatures=desc.signatures, cached=cached)


def _steps(project: KernelProject, compiler: Compiler, cache: BuildCache, folder: Path,
           timings: dict[str, float], raw_access: bool, parts: Runtime) -> None:
    """Run every step in ``folder``; raises StepFailure; leaves ``folder/sim`` on success."""
    kernel_rel = f"op_kernel/{project.kernel}.cpp"
    if kernel_rel not in project.files:
        raise StepFailure(f"the project has no {kernel_rel} (kernel entry {project.kernel})",
                          ErrorCategory.SYNTAX_STRUCTURE)
    try:
        kernel_prelude.template_entry(project)
    except template_kernel.TemplateEntryError as exc:
        raise StepFailure(str(exc), ErrorCategory.API_SIGNATURE) from None
    described = cache.load(describe_key(project, compiler))
    reuse = cache.entry(describe_key(project, compiler)) if described and described.get("ok") else None
    known = described.get("describe") if reuse is not None and described else None
    host_objects, desc, described_text = _host_steps(project, compiler, cache, folder, timings, parts, reuse,
                                                     known if isinstance(known, str) else None)
    if reuse is None:
        _publish_description(project, compiler, cache, host_objects, described_text)
    _write(folder / tiling_fields.LAYOUT_FILE, described_text)          # runs name tiling values
    src = folder / "src"
    include = ["-I", str(INCLUDE_DIR)]
    kplan = kernel_passes.plan(project.files)
    kflags = _kernel_compile_flags(kplan, compiler, raw_access)
    cxx20 = "-std=c++20" in kflags
    kernel_pch, kernel_readable = _pch_args(project, compiler, cache, kflags, "op_kernel")
    kernel_objects = []
    for i, core in enumerate(kplan.passes):
        pass_src = src if i == 0 else folder / f"src_{core.lower()}"
        _write_sources(project, pass_src, core, cxx20, kernel_only=i == 0)
        prelude = folder / (PRELUDE if len(kplan.passes) == 1 else f"npukb_build_{core.lower()}.h")
        _write(prelude, kernel_prelude.prelude(project, desc, core=core, plan=kplan, primary=i == 0))
        obj = f"{folder}/kernel_{core.lower()}.o"
        # Static locals of inline functions must be ordinary weak symbols (not GNU_UNIQUE) for
        # _isolate_pass to make them local to the pass.
        isolate = ["-fno-gnu-unique"] if len(kplan.passes) > 1 and "clang" not in compiler.version.lower() else []
        what = f"compiling {kernel_rel}" + (f" ({_PASS_NAMES[core]} pass)" if len(kplan.passes) > 1 else "")
        out = _run([compiler.path, *kflags, *isolate, *include, "-I", "op_kernel", *kernel_pch, "-include",
                    str(prelude), "-c", kernel_rel, "-o", obj], pass_src, COMPILE_LIMITS, timings, "kernel",
                   kernel_readable, what=what)
        if not out.ok:
            raise _compile_failure(out, folder, what, cache, kernel_readable)
        calls = _device_calls(Path(obj), pass_src, folder, compiler, parts.objects, timings)
        if calls:
            raise StepFailure(device_symbols.report(calls, what), ErrorCategory.API_SIGNATURE)
        if _raw_flags(compiler, raw_access):
            out = _run(redefine_raw_memory_functions(Path(obj).name), folder, COMPILE_LIMITS, timings, "kernel",
                       what="renaming a kernel object's memory functions (objcopy)")
            if not out.ok:     # the machine's tools failed, not the candidate
                why = disk_trouble(folder, out.stderr) or out.stderr.strip()[-300:] or f"exit status {out.returncode}"
                raise InfrastructureError(f"ascendc-sim build (objcopy renaming memory functions): {why}")
        if len(kplan.passes) > 1:
            obj = _isolate_pass(obj, kernel_prelude.ENTRIES[core], i == 0, folder, timings)
        kernel_objects.append(obj)
    out = _run([compiler.path, *LIBRARY_LINK_FLAGS, *host_objects, *kernel_objects, str(parts.api_stub), "-o", LIBRARY],
               folder, COMPILE_LIMITS, timings, "link", what="linking")
    if not out.ok:
        raise _compile_failure(out, folder, "linking")
    for leftover in [*host_objects, *kernel_objects, f"{folder}/{DESCRIBE_LIBRARY}"]:
        Path(leftover).unlink(missing_ok=True)


_PASS_NAMES = {"AIC": "cube core (AIC)", "AIV": "vector core (AIV)"}


def _publish_description(project: KernelProject, compiler: Compiler, cache: BuildCache, host_objects: list[str],
                         text: str) -> None:
    """Publish a build's host step as describe() would have (its host objects and registration output),
    so that the next build with the same host sources (another dtype, another kernel) reuses both."""
    folder = _scratch(cache, "d-")
    try:
        for i, obj in enumerate(host_objects):
            _copy(Path(obj), folder / f"host_{i}.o")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    _publish(cache, describe_key(project, compiler), folder,
             {"ok": True, "describe": text, "diagnostics": "", "category": None, "timed_out": False,
              "step_seconds": {}})


def kernel_flags(kplan: kernel_passes.KernelPlan) -> tuple[str, ...]:
    """Compile flags of the kernel TU. Kernels that use the cube unit are compiled as C++20: their
    libraries (Catlass-style layouts) rely on constexpr constructors that leave members to default
    initialisation, which clang -- and so the device compiler -- accepts in C++17 as an extension
    and g++ only from C++20 on. Position-independent (PIC_FLAGS): the kernel goes into a shared object."""
    if "AIC" not in kplan.passes:
        return (*KERNEL_FLAGS, *PIC_FLAGS)
    return (*("-std=c++20" if f == "-std=c++17" else f for f in KERNEL_FLAGS), *PIC_FLAGS)


def _kernel_compile_flags(kplan: kernel_passes.KernelPlan, compiler: Compiler, raw_access: bool) -> tuple[str, ...]:
    """Every flag of a kernel TU's compile on this machine (its precompiled header's too)."""
    return (*kernel_flags(kplan), *isa_flags(compiler), *_raw_flags(compiler, raw_access))


def _isolate_pass(obj: str, entry: str, primary: bool, folder: Path, timings: dict[str, float]) -> str:
    """Make every symbol of a compile pass local except its entry points, and drop COMDAT groups, so
    that the two passes of a mixed kernel (same inline functions, different g_coreType) link side by
    side without one pass's copy replacing the other's."""
    objcopy = shutil.which("objcopy")
    if objcopy is None:
        raise InfrastructureError("ascendc-sim build: objcopy (GNU binutils) is needed to link a kernel that runs "
                                  "on both cube and vector cores; install binutils")
    # The primary pass also exports what the runtime calls back: the kernel type, and the cost of a raw
    # access (runtime/raw_access.cpp; without it no pass's raw accesses would be costed).
    keep = ["-G", entry] + (["-G", "npukb_kernel_type", "-G", "npukb_kernel_raw_access", "-G",
                             "npukb_kernel_scalar_block"] if primary else [])
    isolated = obj[:-2] + "_local.o"
    out = _run([objcopy, *keep, "--remove-section=.group", obj, isolated], folder, COMPILE_LIMITS, timings, "kernel",
               what="isolating a compile pass (objcopy)")
    if not out.ok:      # objcopy on an object our compiler just wrote: our tools failed, not the candidate
        why = disk_trouble(folder, out.stderr) or out.stderr.strip()[-300:] or f"exit status {out.returncode}"
        raise InfrastructureError(f"ascendc-sim build (objcopy on a compile pass): {why}")
    Path(obj).unlink(missing_ok=True)
    return isolated


def build(project: KernelProject, compiler: Compiler, cache: BuildCache, raw_access: bool = True) -> BuildResult:
    """Build ``project``; ``raw_access`` False compiles the kernel without the raw-access
    instrumentation (its own loads and stores then cost nothing: for demonstrating the cost rule)."""
    start = time.monotonic()
    try:
        key = build_key(project, compiler, raw_access)
    except InstrumentationError as exc:     # this machine's compiler, not the candidate
        raise InfrastructureError(f"ascendc-sim build (raw-access instrumentation): {exc}") from exc
    record = cache.load(key)
    if record is not None:
        return _result(record, cache.entry(key), key, time.monotonic() - start, cached=True)
    folder = _scratch(cache, f"{key[:12]}-")
    meta = {"op": project.op, "kernel": project.kernel,
            "raw_access_costed": bool(_raw_flags(compiler, raw_access)),
            "params": [[p.name, p.role, p.param_type, p.dtype] for p in project.params]}
    timings: dict[str, float] = {}
    try:
        _steps(project, compiler, cache, folder, timings, raw_access, runtime(compiler, cache))
        record = {"ok": True, "diagnostics": "", "category": None, "timed_out": False, **meta}
    except StepFailure as failure:
        record = {"ok": False, "diagnostics": failure.diagnostics, "category": failure.category.value,
                  "timed_out": failure.timed_out, **meta}
    except BaseException:               # InfrastructureError (or an interrupt): nothing is kept
        shutil.rmtree(folder, ignore_errors=True)
        raise
    record["seconds"] = round(time.monotonic() - start, 3)
    record["step_seconds"] = timings
    if record["timed_out"]:
        # Not cached: a time-out may be the machine's load rather than the candidate.
        shutil.rmtree(folder, ignore_errors=True)
        return _result(record, folder, key, time.monotonic() - start, cached=False)
    target = _publish(cache, key, folder, record)
    return _result(cache.load(key) or record, target, key, time.monotonic() - start, cached=False)


def _publish(cache: BuildCache, key: str, folder: Path, record: dict) -> Path:
    """Store ``folder`` under ``key``; a cache that cannot be written is an InfrastructureError."""
    try:
        return cache.publish(key, folder, record)
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise disk_error(exc, "cannot store the build in the cache") or \
            InfrastructureError(f"cannot store the build in the cache {cache.root}: {exc}") from exc


def _result(record: dict, folder: Path, key: str, seconds: float, cached: bool) -> BuildResult:
    ok = bool(record.get("ok"))
    category = record.get("category")
    return BuildResult(ok=ok, artifact=folder / LIBRARY if ok else None, key=key,
                       diagnostics=record.get("diagnostics", ""),
                       error_category=ErrorCategory(category) if category else None,
                       seconds=seconds, cached=cached, timed_out=bool(record.get("timed_out")),
                       steps={} if cached else dict(record.get("step_seconds") or {}))

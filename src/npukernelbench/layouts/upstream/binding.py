"""``validation/pybind.cpp`` compiled for real into the ``kernel_gen_ops`` module, as upstream builds it.

The file is compiled against torch's own C++ headers (the CPU wheel ships them under
``torch/include``) and the Python headers, with npukernelbench's ``pytorch_npu_helper.hpp`` (see
``include/``) in place of torch_npu's: its ``EXEC_NPU_CMD`` hands the op name and the arguments to
:mod:`npukernelbench.layouts.upstream.op_call`. The task's own code thus decides, exactly as upstream, which
outputs exist, how they are allocated (``empty_like``, explicit shapes and dtypes, extra outputs) and
in which order inputs, attributes and outputs reach the operator.

Modules are cached per (pybind.cpp content, helper version, torch version, Python, compiler, flags)
under ``<cache root>/pybind/``. A precompiled header of the torch headers (built once per machine
under a file lock; several hundred MB) takes a compile from ~25 s to ~7 s.

A failure of our machinery while building a module (the confinement wrapper, a missing or crashing
compiler, missing torch or Python headers, a full disk, a time-out under load) raises
:class:`~npukernelbench.infrastructure.InfrastructureError`: retried once, never blamed on the
candidate or on the task, never cached. :class:`BindingError` is left for what the task's own
``pybind.cpp`` causes (a genuine compiler diagnostic, a module that does not import).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import importlib.util
import os
import shutil
import sys
import sysconfig
import types
from dataclasses import dataclass
from pathlib import Path

from npukernelbench.infrastructure import InfrastructureError, compiler_crash, disk_error, disk_trouble
from npukernelbench.sandbox import Limits, ProcessOutcome, Request, clean_env, run_confined
from npukernelbench.toolchains.base import HostCompiler

HELPER_DIR = Path(__file__).resolve().parent / "include"
MODULE_NAME = "kernel_gen_ops"
PCH_STUB = "npukb_torch_pch.h"
COMPILE_LIMITS = Limits(cpu_s=300, memory_bytes=8 << 30, wall_s=300.0, file_bytes=2 << 30)
FLAGS = ("-std=c++17", "-O0", "-g0", "-fPIC", "-w", "-DTORCH_API_INCLUDE_EXTENSION_H")


class BindingError(RuntimeError):
    """The task's pybind.cpp does not build (a genuine compiler diagnostic) or its module does not
    import: a problem of the task, never of a candidate. This machine's failures are
    InfrastructureError instead."""


@dataclass(frozen=True)
class TorchBuild:
    includes: tuple[str, ...]
    lib_dir: str
    abi: int
    version: str


@functools.lru_cache(maxsize=1)
def torch_build() -> TorchBuild:
    import torch

    root = Path(torch.__file__).resolve().parent
    include = root / "include"
    if not (include / "torch" / "extension.h").is_file():
        raise InfrastructureError(f"torch at {root} ships no C++ headers (torch/include/torch/extension.h): "
                                  "install the torch wheel from PyPI, which includes them")
    return TorchBuild(includes=(str(include), str(include / "torch" / "csrc" / "api" / "include")),
                      lib_dir=str(root / "lib"), abi=int(torch._C._GLIBCXX_USE_CXX11_ABI), version=torch.__version__)


def python_include() -> str:
    path = Path(sysconfig.get_paths()["include"])
    if not (path / "Python.h").is_file():
        raise InfrastructureError(f"Python development headers are missing ({path}/Python.h): install them "
                                  "(e.g. `apt-get install python3-dev`) to build the tasks' pybind.cpp")
    return str(path)


@functools.lru_cache(maxsize=1)
def helper_version() -> str:
    digest = hashlib.sha256()
    for path in sorted(HELPER_DIR.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(HELPER_DIR).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _flags(build: TorchBuild) -> list[str]:
    flags = [*FLAGS, f"-D_GLIBCXX_USE_CXX11_ABI={build.abi}", "-I", str(HELPER_DIR)]
    for inc in (*build.includes, python_include()):
        flags += ["-isystem", inc]
    return flags


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def _precompiled_header(root: Path, cxx: str, version: str, flags: list[str]) -> list[str]:
    """``-include`` arguments of the torch PCH, or nothing when g++ is not the compiler or it failed."""
    if "g++" not in os.path.basename(cxx) and "g++" not in version.lower():
        return []
    target = root / f"pch-{_key(cxx, version, *flags, helper_version())}"
    stub = target / PCH_STUB
    if (target / "FAILED").exists():
        return []
    if not (target / f"{PCH_STUB}.gch").is_file():
        root.mkdir(parents=True, exist_ok=True)
        with open(root / f"{target.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if not target.exists():
                    _build_pch(root, target, cxx, flags)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    return ["-include", str(stub)] if (target / f"{PCH_STUB}.gch").is_file() else []


def _build_pch(root: Path, target: Path, cxx: str, flags: list[str]) -> None:
    try:
        folder = Path(_scratch(root, "pch-"))
    except InfrastructureError:
        return                          # no PCH this time (a full disk shows in the build itself)
    (folder / PCH_STUB).write_text("#include <torch/extension.h>\n#include <torch/library.h>\n"
                                   "#include <torch/csrc/autograd/custom_function.h>\n"
                                   '#include "pytorch_npu_helper.hpp"\n', encoding="utf-8")
    out = run_confined(Request(argv=[cxx, *flags, "-x", "c++-header", PCH_STUB, "-o", f"{PCH_STUB}.gch"],
                               cwd=folder, limits=COMPILE_LIMITS, env=clean_env()))
    if not out.ok:
        if out.timed_out or "error" not in out.stderr or _machinery_failure(out, folder):
            # the machine's trouble, not the headers': no PCH now, try again next time
            shutil.rmtree(folder, ignore_errors=True)
            return
        (folder / f"{PCH_STUB}.gch").unlink(missing_ok=True)
        (folder / "FAILED").write_text(out.stderr[-4000:], encoding="utf-8")
    try:
        os.rename(folder, target)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)


def _scratch(root: Path, prefix: str) -> str:
    import tempfile

    tmp = root / "tmp"
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        return tempfile.mkdtemp(prefix=prefix, dir=tmp)
    except OSError as exc:
        raise disk_error(exc, f"cannot create a build folder under {tmp}", root) or \
            InfrastructureError(f"cannot create a build folder under {tmp}: {exc}") from exc


def _machinery_failure(out: ProcessOutcome, folder: Path) -> str | None:
    """Why a failed compile or link was our machinery's doing (not the task's code), or None."""
    if out.infrastructure:
        return out.infrastructure
    if out.timed_out:
        return f"the compiler exceeded its {COMPILE_LIMITS.wall_s:g} s limit (machine overloaded?)"
    return compiler_crash(out) or disk_trouble(folder, out.stderr + out.stdout)


def task_source(text: str, op: str, kernel: str) -> str:
    """``pybind.cpp`` as upstream's build prepares it: the placeholders ``aclnnCustomOp`` and
    ``custom_pybind_api`` become ``aclnn<Op>`` and the kernel name (``module.py`` calls
    ``kernel_gen_ops.<kernel>``)."""
    return text.replace("aclnnCustomOp", f"aclnn{op}").replace("custom_pybind_api", kernel)


def build_binding(pybind: Path, cache_root: Path, op: str, kernel: str, compiler: HostCompiler) -> Path:
    """The compiled ``kernel_gen_ops`` extension of ``pybind`` for operator ``op`` with kernel name
    ``kernel`` (built once, then cached), built with the toolchain's host ``compiler``."""
    pybind = Path(pybind)
    try:
        source = task_source(pybind.read_text(encoding="utf-8"), op, kernel)
    except OSError as exc:
        raise BindingError(f"cannot read {pybind}: {exc}") from None
    build = torch_build()
    cxx, version = compiler.path, compiler.version
    flags = _flags(build)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    root = Path(cache_root) / "pybind"
    key = _key(source, helper_version(), build.version, sys.version, cxx, version, *flags)
    # Every task's module gets its own name (CPython keeps one extension module per name in a process):
    # -Dkernel_gen_ops=... renames PYBIND11_MODULE(kernel_gen_ops, m) without touching the source.
    name = f"{MODULE_NAME}_{key[:16]}"
    target = root / key
    library = target / f"{name}{suffix}"
    if library.is_file():
        return library
    pch = _precompiled_header(root, cxx, version, flags)
    folder = Path(_scratch(root, "bind-"))
    try:
        (folder / "pybind.cpp").write_text(source, encoding="utf-8")
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise disk_error(exc, "cannot write pybind.cpp", root) or \
            InfrastructureError(f"cannot write pybind.cpp under {folder}: {exc}") from exc
    libs = [f"-L{build.lib_dir}", f"-Wl,-rpath,{build.lib_dir}", "-lc10", "-ltorch", "-ltorch_cpu", "-ltorch_python"]
    names = [f"-D{MODULE_NAME}={name}", f"-DTORCH_EXTENSION_NAME={name}"]
    compiled = run_confined(Request(argv=[cxx, *flags, *pch, *names, "-Winvalid-pch", "-c", "pybind.cpp", "-o",
                                          "pybind.o"], cwd=folder, limits=COMPILE_LIMITS, env=clean_env()))
    linked = compiled
    if compiled.ok:
        linked = run_confined(Request(argv=[cxx, "-shared", "pybind.o", "-o", library.name, *libs], cwd=folder,
                                      limits=COMPILE_LIMITS, env=clean_env()))
    if not linked.ok:
        # Not cached: a task's broken pybind.cpp is rare enough to compile again.
        machinery = _machinery_failure(linked, folder)
        shutil.rmtree(folder, ignore_errors=True)
        if machinery:
            step = "compiling" if linked is compiled else "linking"
            raise InfrastructureError(f"{step} the task's pybind.cpp: {machinery}")
        log = (linked.stderr + linked.stdout).replace(f"{folder}/", "")
        raise BindingError(f"{pybind} does not build with the npukernelbench helper:\n{log[-3000:]}")
    (folder / "pybind.o").unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(folder, target)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
    if not library.is_file():
        raise BindingError(f"building {pybind}: {library.name} is missing after a successful build")
    return library


_LOADED: dict[str, types.ModuleType] = {}


def load_binding(library: Path) -> types.ModuleType:
    """Import a compiled ``kernel_gen_ops`` (once per file; each task's module has its own name)."""
    key = str(Path(library).resolve())
    if key not in _LOADED:
        import torch  # noqa: F401  (the extension links against the loaded torch libraries)

        spec = importlib.util.spec_from_file_location(Path(key).name.split(".")[0], key)
        if spec is None or spec.loader is None:
            raise BindingError(f"cannot import {library}")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except ImportError as exc:
            raise BindingError(f"cannot import {library}: {exc}") from None
        _LOADED[key] = module
    return _LOADED[key]

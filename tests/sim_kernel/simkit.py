"""Build-and-run helper for the kernel-side simulator tests (tests/sim_kernel).

Every test program is compiled with the real g++ against the ascendc-sim headers and the tiny test
runtime in support/test_runtime.cpp, then run as a child process through npukernelbench.sandbox-like
plain subprocess calls (the programs are our own test code, not untrusted model output).
"""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

from npukernelbench.toolchains.ascendc_sim import call_sites
from npukernelbench.toolchains.ascendc_sim.compiler import KERNEL_DEFINES

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "src" / "npukernelbench" / "toolchains" / "ascendc_sim" / "include"
SUPPORT = Path(__file__).resolve().parent / "support"
RUNTIME = ROOT / "src" / "npukernelbench" / "toolchains" / "ascendc_sim" / "runtime"
CXX = "g++"
# Test kernels are compiled as the build compiles a kernel TU (the device build's predefined macros, line
# tables for the call sites of reports).
FLAGS = ["-std=c++17", "-O0", "-g1", "-w", *KERNEL_DEFINES]

PRELUDE = """
#include "kernel_operator.h"
#include "test_support.h"
using namespace AscendC;
"""

MAIN = """
int main(int argc, char** argv) {
  npukb_test::set_dir(argc > 1 ? argv[1] : ".");
  run_test();
  npukb_test::save_outputs();
  return 0;
}
"""


@dataclass(frozen=True)
class Compiled:
    ok: bool
    stderr: str
    exe: Path | None


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


CUBE_ENGINE = ROOT / "src" / "npukernelbench" / "toolchains" / "ascendc_sim" / "runtime" / "cube_engine.cpp"


def runtime_object(cache: Path) -> Path:
    """Compile support/test_runtime.cpp, support/test_libc.cpp (the device C library's run-time-size
    memory functions) and the simulator's cube engine once per cache directory into one relocatable
    object."""
    src = SUPPORT / "test_runtime.cpp"
    libc = SUPPORT / "test_libc.cpp"
    digest = hashlib.sha256(src.read_bytes() + (SUPPORT / "test_support.h").read_bytes() + libc.read_bytes() +
                            CUBE_ENGINE.read_bytes() + (INCLUDE / "npukb_sim" / "cube_engine.h").read_bytes() +
                            (RUNTIME / "call_site.h").read_bytes() + " ".join(FLAGS).encode()).hexdigest()[:16]
    obj = cache / f"test_runtime_{digest}.o"
    if not obj.exists():
        parts = []
        for i, (source, extra) in enumerate(((src, ()), (libc, ()), (CUBE_ENGINE, ("-O2", "-ffp-contract=off")))):
            part = cache / f"test_runtime_{digest}_{i}.o"
            subprocess.run([CXX, *FLAGS, *extra, "-c", f"-I{INCLUDE}", f"-I{SUPPORT}", f"-I{RUNTIME}", str(source),
                            "-o", str(part)],
                           check=True, capture_output=True, text=True)
            parts.append(str(part))
        subprocess.run([CXX, "-r", "-nostdlib", *parts, "-o", str(obj)], check=True, capture_output=True, text=True)
    return obj


def compile_program(
    body: str, workdir: Path, cache: Path, defines: tuple[str, ...] = (), with_main: bool = True
) -> Compiled:
    """Compile PRELUDE + body (+ MAIN calling run_test()) into an executable."""
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / "prog.cpp"
    src.write_text(PRELUDE + body + (MAIN if with_main else ""))
    exe = workdir / "prog"
    cmd = [CXX, *FLAGS, f"-I{INCLUDE}", f"-I{SUPPORT}", *(f"-D{d}" for d in defines), str(src),
           str(runtime_object(cache)), "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return Compiled(proc.returncode == 0, proc.stderr, exe if proc.returncode == 0 else None)


def compile_source(source: str, workdir: Path, cache: Path, include: Path = INCLUDE) -> Compiled:
    """Compile a whole translation unit of our own (it includes what it needs: kernel_operator.h,
    test_support.h, a main) and link it with the test runtime. ``include``: the simulator headers to
    compile against."""
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / "prog.cpp"
    src.write_text(source)
    exe = workdir / "prog"
    cmd = [CXX, *FLAGS, f"-I{include}", f"-I{SUPPORT}", str(src), str(runtime_object(cache)), "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return Compiled(proc.returncode == 0, proc.stderr, exe if proc.returncode == 0 else None)


def syntax_check(source: str, workdir: Path, defines: tuple[str, ...] = (), include: Path = INCLUDE) -> Compiled:
    """Compile a translation unit with -fsyntax-only (negative corpus, header idioms)."""
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / "snippet.cpp"
    src.write_text(source)
    cmd = [CXX, "-std=c++17", "-fsyntax-only", *KERNEL_DEFINES, f"-I{include}", *(f"-D{d}" for d in defines), str(src)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return Compiled(proc.returncode == 0, proc.stderr, None)


def candidate_file(path: str) -> str | None:
    """Call-site rule of the test programs: the program's own source is the candidate's."""
    return Path(path).name if Path(path).name in ("prog.cpp", "snippet.cpp") else None


def symbolized(exe: Path, text: str) -> str:
    """``text`` with the runtime's call-site tokens replaced by the test program's lines."""
    wanted = call_sites.offsets([text])
    if not wanted:
        return text
    out = subprocess.run(call_sites.addr2line_argv("addr2line", str(exe), wanted), capture_output=True, text=True,
                         timeout=60)
    return call_sites.resolve(text, call_sites.parse_addr2line(out.stdout), candidate_file)


def run_program(exe: Path, workdir: Path, timeout: float = 60.0) -> Ran:
    proc = subprocess.run([str(exe), str(workdir)], capture_output=True, text=True, timeout=timeout)
    return Ran(proc.returncode, proc.stdout, symbolized(exe, proc.stderr))


class Program:
    """Convenience wrapper: write inputs, build, run, read outputs."""

    def __init__(self, workdir: Path, cache: Path) -> None:
        self.workdir = workdir
        self.cache = cache
        workdir.mkdir(parents=True, exist_ok=True)

    def inputs(self, *arrays) -> None:  # numpy arrays
        for i, a in enumerate(arrays):
            (self.workdir / f"in{i}.bin").write_bytes(a.tobytes())

    def run(self, body: str, defines: tuple[str, ...] = ()) -> Ran:
        comp = compile_program(body, self.workdir, self.cache, defines)
        if not comp.ok:
            raise AssertionError("test program failed to compile:\n" + comp.stderr[-6000:])
        assert comp.exe is not None
        return run_program(comp.exe, self.workdir)

    def output(self, i: int, dtype):
        import numpy as np

        return np.frombuffer((self.workdir / f"out{i}.bin").read_bytes(), dtype=dtype)

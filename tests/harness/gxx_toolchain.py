"""A small real Toolchain for the harness's own tests: g++ builds a plain-C++ "kernel" and a launcher.

Kernel ABI (op_kernel/<kernel>.cpp)::

    extern "C" void <kernel>(void** inputs, void** outputs, long n, const double* attrs, long* cost);

``n`` is the element count of the first input; the kernel adds its own work estimate to ``*cost``
(the toolchain reports ``cost / 1000`` microseconds as an estimated time). ``DTYPE_<NAME>`` macros
give each parameter's C++ type, as on the real toolchain. Outputs are poisoned before the call.
Only op_kernel sources are compiled; op_host files are carried along unbuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from npukernelbench.diagnostics import classify, trim
from npukernelbench.dtypes import dtype as lookup_dtype
from npukernelbench.hardware import Hardware
from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.sandbox import Limits, Request, run_confined
from npukernelbench.toolchains.base import BuildResult, HostCompiler, KernelProject, Launch, Preprocessing, RunResult

LAUNCHER = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" void KERNEL(void** inputs, void** outputs, long n, const double* attrs, long* cost);
static std::vector<char> slurp(const char* p) {
  FILE* f = std::fopen(p, "rb"); std::vector<char> b; if (!f) return b;
  std::fseek(f, 0, SEEK_END); long s = std::ftell(f); std::fseek(f, 0, SEEK_SET);
  b.resize(s); if (s) std::fread(b.data(), 1, s, f); std::fclose(f); return b;
}
int main(int argc, char** argv) {
  // argv: n poison ni no na [in bytes...] [out bytes...] [attrs...]
  long n = std::atol(argv[1]); int poison = std::atoi(argv[2]);
  int ni = std::atoi(argv[3]), no = std::atoi(argv[4]), na = std::atoi(argv[5]);
  std::vector<std::vector<char>> ins(ni), outs(no); std::vector<void*> ip(ni), op(no);
  for (int i = 0; i < ni; ++i) {
    char p[64]; std::snprintf(p, 64, "in%d.bin", i); ins[i] = slurp(p); ip[i] = ins[i].data();
  }
  for (int i = 0; i < no; ++i) {
    long b = std::atol(argv[6 + ni + i]); outs[i].assign(b, (char)poison); op[i] = outs[i].data();
  }
  std::vector<double> attrs(na + 1);
  for (int i = 0; i < na; ++i) attrs[i] = std::atof(argv[6 + ni + no + i]);
  long cost = 0;
  KERNEL(ip.data(), op.data(), n, attrs.data(), &cost);
  for (int i = 0; i < no; ++i) {
    char p[64];
    std::snprintf(p, 64, "out%d.bin", i);
    FILE* f = std::fopen(p, "wb");
    std::fwrite(outs[i].data(), 1, outs[i].size(), f);
    std::fclose(f);
  }
  for (int i = 0; i < ni; ++i) {
    char p[64];
    std::snprintf(p, 64, "after%d.bin", i);
    FILE* f = std::fopen(p, "wb");
    std::fwrite(ins[i].data(), 1, ins[i].size(), f);
    std::fclose(f);
  }
  std::printf("%ld\n", cost);
  return 0;
}
"""


class GxxToolchain:
    name = "gxx-test"
    speed_kind = "estimated"

    def __init__(self, cache: str | Path | None = None):
        self.cache = Path(cache or Path(tempfile.gettempdir()) / "npukb-gxx-test-cache")

    def unavailable_reason(self) -> str | None:
        return None if shutil.which("g++") else "g++ not found on PATH"

    def include_allowlist(self) -> frozenset[str]:
        return frozenset()                 # plain C++: the standard headers the checks allow anyway

    def preprocessing(self) -> Preprocessing:
        return Preprocessing(compiler=shutil.which("g++"))      # plain C++: no headers of its own

    def host_compiler(self) -> HostCompiler:
        path = shutil.which("g++")
        if path is None:
            raise InfrastructureError("g++ not found on PATH")
        return HostCompiler(path=path, version="g++")

    def cache_root(self) -> Path:
        return self.cache

    def hardware(self, soc: str | None = None) -> Hardware:
        return Hardware(soc="host CPU (g++ test toolchain)", vector_cores=1, cube_cores=0, ub_bytes=0,
                        l1_bytes=0, l0a_bytes=0, l0b_bytes=0, l0c_bytes=0)

    def build(self, project: KernelProject) -> BuildResult:
        payload = json.dumps([sorted(project.files.items()), [p.__dict__ for p in project.params], project.kernel,
                              LAUNCHER], sort_keys=True)
        key = hashlib.sha256(payload.encode()).hexdigest()[:20]
        folder = self.cache / key
        exe = folder / "kernel"
        if exe.is_file():
            return BuildResult(True, exe, key, cached=True)
        log = folder / "build.log"
        if log.is_file():
            text = log.read_text()
            return BuildResult(False, None, key, trim(text), classify(text), cached=True)
        # Build in a private folder and publish with an atomic rename: parallel test processes (xdist,
        # mutation runs) may build the same key at the same time.
        folder.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
        try:
            src = work / "src"
            for rel, text in project.files.items():
                (src / rel).parent.mkdir(parents=True, exist_ok=True)
                (src / rel).write_text(text)
            (work / "launcher.cpp").write_text(LAUNCHER.replace("KERNEL", project.kernel))
            defines = [f"-DDTYPE_{p.name.upper()}={lookup_dtype(p.dtype).cpp}" for p in project.params]
            kernels = sorted(str(p) for p in (src / "op_kernel").glob("*.cpp"))
            outcome = run_confined(Request(["g++", "-std=c++17", "-O1", "-w", *defines, *kernels, "launcher.cpp",
                                            "-o", "kernel"], cwd=work, limits=Limits(wall_s=120)))
            if outcome.infrastructure:
                raise InfrastructureError(f"gxx-test build: {outcome.infrastructure}")
            if not outcome.ok:
                text = outcome.stderr + outcome.stdout
                if not outcome.timed_out:
                    (work / "build.log").write_text(text)
                    os.replace(work / "build.log", log)
                return BuildResult(False, None, key, trim(text), classify(text), seconds=outcome.seconds,
                                   timed_out=outcome.timed_out)
            os.replace(work / "kernel", exe)
            return BuildResult(True, exe, key, seconds=outcome.seconds)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def run(self, build: BuildResult, launch: Launch) -> RunResult:
        assert build.artifact is not None
        with tempfile.TemporaryDirectory(prefix="npukb-gxx-run-") as tmp:
            work = Path(tmp)
            sizes_in = []
            for i, arg in enumerate(launch.inputs):
                data = np.ascontiguousarray(arg.data)
                (work / f"in{i}.bin").write_bytes(data.tobytes())
                sizes_in.append(data.nbytes)
            n = int(np.asarray(launch.inputs[0].data).size)
            out_bytes = [int(np.prod(a.shape)) * lookup_dtype(a.dtype).itemsize for a in launch.outputs]
            attrs = [str(float(v)) for _, (_, v) in sorted(launch.attrs.items())]
            argv = [str(build.artifact), str(n), str(0xA5 ^ (launch.poison_seed & 0xFF)), str(len(launch.inputs)),
                    str(len(launch.outputs)), str(len(attrs)), *map(str, sizes_in), *map(str, out_bytes), *attrs]
            outcome = run_confined(Request(argv, cwd=work, limits=Limits(wall_s=launch.timeout_s)))
            if outcome.infrastructure:
                raise InfrastructureError(f"gxx-test run: {outcome.infrastructure}")
            if outcome.timed_out:
                return RunResult(False, message=f"killed at its {launch.timeout_s:g} s wall-clock limit",
                                 timed_out=True)
            if not outcome.ok:
                return RunResult(False, message=f"kernel crashed ({outcome.signal_name or outcome.returncode}): "
                                                f"{outcome.stderr.strip()[:300]}")
            outputs = {}
            for i, a in enumerate(launch.outputs):
                st = lookup_dtype(a.dtype).numpy_storage
                outputs[a.name] = np.frombuffer((work / f"out{i}.bin").read_bytes(), dtype=st).reshape(a.shape).copy()
            after = {}
            for i, a in enumerate(launch.inputs):
                arr = np.asarray(a.data)
                after[a.name] = np.frombuffer((work / f"after{i}.bin").read_bytes(), dtype=arr.dtype).reshape(
                    arr.shape).copy()
            cost = int(outcome.stdout.strip().splitlines()[-1])
            return RunResult(True, outputs=outputs, inputs_after=after, time_us=cost / 1000.0)

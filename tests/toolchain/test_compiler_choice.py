"""Which host compiler the simulator builds with: one whose ``_Float16`` converts from float and double
implicitly, as AscendC's ``half`` does on the device compiler. GCC 13 and later apply C++23's rules
for extended floating-point types and reject ``half x = 1.0;``; such a compiler is passed over (the
next candidate is tried) or, when it is the only one, the toolchain says it cannot run here, so a
valid kernel is never blamed for the host compiler.

The stand-in for GCC 13 is a real compiler run: this machine's g++ with its float-conversion warning
made an error, which rejects the same conversions."""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim import compiler

GXX = shutil.which("g++")
pytestmark = pytest.mark.skipif(GXX is None, reason="needs g++")


def strict_gxx(folder: Path, name: str = "g++") -> Path:
    """A g++ that, like GCC 13, rejects implicit double -> _Float16 conversions."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n"
                    'if [ "$1" = "--version" ]; then echo "g++ (strict float16) 13.3.0"; exit 0; fi\n'
                    f'exec {GXX} -Werror=float-conversion "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture(autouse=True)
def fresh_probes():
    compiler._probe.cache_clear()
    compiler.half_conversion_problem.cache_clear()
    yield
    compiler._probe.cache_clear()
    compiler.half_conversion_problem.cache_clear()


def test_this_machines_compiler_handles_half_like_the_device(monkeypatch):
    monkeypatch.delenv("NPUKB_CXX", raising=False)
    found = compiler.find_compiler()
    assert isinstance(found, compiler.Compiler), found
    assert compiler.half_conversion_problem(found) is None


def test_a_compiler_with_cxx23_float16_rules_is_refused_with_the_way_out(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUKB_CXX", str(strict_gxx(tmp_path / "bin")))
    found = compiler.find_compiler()
    assert isinstance(found, str)
    assert "13.3.0 cannot compile the simulator's half" in found and "NPUKB_CXX" in found
    assert "\n" not in found


def test_g_plus_plus_12_is_taken_when_g_plus_plus_is_too_new(tmp_path, monkeypatch):
    folder = tmp_path / "bin"
    strict_gxx(folder, "g++")
    (folder / "g++-12").symlink_to(GXX)
    monkeypatch.delenv("NPUKB_CXX", raising=False)
    monkeypatch.setenv("PATH", str(folder))
    found = compiler.find_compiler()
    assert isinstance(found, compiler.Compiler), found
    assert found.path == str(folder / "g++-12")


def test_evaluation_with_only_a_too_new_compiler_exits_2_before_any_verdict(tmp_path):
    """No build_error is recorded against the expert solution: the run stops as misconfigured."""
    case = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"
    env = {"NPUKB_CXX": str(strict_gxx(tmp_path / "bin")), "PATH": "/usr/bin:/bin",
           "NPUKB_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "evaluate", str(case), "--shapes", "static",
                           "--npukb-out", str(tmp_path / "out")], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot compile the simulator's half" in lines[0], proc.stderr
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_a_compiler_broken_in_another_way_is_not_judged_on_half(tmp_path):
    """One that fails the control program too (crashing, a full disk) is left to its builds, which report
    the failure as our machinery's, as they always did."""
    broken = tmp_path / "bin" / "g++"
    broken.parent.mkdir()
    broken.write_text('#!/bin/sh\nif [ "$1" = "--version" ]; then echo "g++ (broken) 12.2.0"; exit 0; fi\n'
                      'echo "fatal error: cannot write: No space left on device" >&2; exit 1\n')
    broken.chmod(0o755)
    found = compiler._probe(str(broken))
    assert isinstance(found, compiler.Compiler)
    assert compiler.half_conversion_problem(found) is None

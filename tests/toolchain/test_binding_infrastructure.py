"""The public layout's compiled bindings (a task's ``validation/pybind.cpp``): a failure of our
machinery while building one (a crashing compiler, a compiler that is missing, a full disk) is an
InfrastructureError, never the task's BindingError nor the candidate's fault, and nothing is cached;
a genuine diagnostic of the task's code stays a BindingError.

The compiler is a script of ours (``NPUKB_CXX``) that misbehaves as its mode says (written into the
script: the one file of ours the sandbox surely lets it read), for real: no compile of the torch
headers is needed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.layouts.upstream import binding
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

FAKE_CXX = r"""#!/bin/sh
case "$*" in
  *--version*|*-dumpfullversion*|*-dumpversion*) exec '{gxx}' "$@" ;;
esac
case '{mode}' in
  segv) kill -SEGV $$ ;;
  ice) echo "pybind.cpp:1:1: internal compiler error: Segmentation fault" >&2; exit 4 ;;
  nospace) echo "pybind.cpp: fatal error: cannot write pybind.o: No space left on device" >&2; exit 1 ;;
  error) echo "pybind.cpp:3:5: error: 'at' was not declared in this scope" >&2; exit 1 ;;
esac
exit 1
"""

PYBIND = '#include "pytorch_npu_helper.hpp"\nPYBIND11_MODULE(kernel_gen_ops, m) {}\n'


@pytest.fixture
def fake(tmp_path, monkeypatch):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.fail("g++ is needed (apt-get install g++)", pytrace=False)
    script = tmp_path / "g++"
    script.write_text(FAKE_CXX.format(gxx=gxx, mode="ok"))
    script.chmod(0o755)
    monkeypatch.setenv("NPUKB_CXX", str(script))
    pybind = tmp_path / "pybind.cpp"
    pybind.write_text(PYBIND)
    return Mode(script, gxx), pybind, tmp_path / "cache"


class Mode:
    def __init__(self, script: Path, gxx: str):
        self.script, self.gxx = script, gxx

    def write_text(self, mode: str) -> None:
        self.script.write_text(FAKE_CXX.format(gxx=self.gxx, mode=mode))


def host_compiler(cache: Path):
    """The simulator's host compiler, as the upstream layout builds bindings with it (NPUKB_CXX)."""
    return AscendCSimToolchain(cache_dir=cache).host_compiler()


def _kept(cache: Path) -> list[Path]:
    """What a failed build left under the binding cache (besides empty scratch and lock files)."""
    root = cache / "pybind"
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".lock"))


@pytest.mark.parametrize("mode, cause", [
    ("segv", "the compiler died of SIGSEGV"),
    ("ice", "internal compiler error"),
])
def test_crashing_compiler_is_infrastructure_and_not_cached(fake, mode, cause) -> None:
    mode_file, pybind, cache = fake
    mode_file.write_text(mode)
    with pytest.raises(InfrastructureError, match=cause) as caught:
        binding.build_binding(pybind, cache, "AddCustom", "add_custom", host_compiler(cache))
    assert "pybind.cpp" in caught.value.cause
    assert not isinstance(caught.value, binding.BindingError)
    assert _kept(cache) == [], "a failure of our machinery was cached"


def test_full_disk_is_infrastructure(fake, monkeypatch) -> None:
    mode_file, pybind, cache = fake
    mode_file.write_text("nospace")
    monkeypatch.setattr("npukernelbench.infrastructure.DISK_MESSAGE_MARGIN_BYTES", 1 << 62)  # "the disk is full"
    with pytest.raises(InfrastructureError, match="scratch disk is full"):
        binding.build_binding(pybind, cache, "AddCustom", "add_custom", host_compiler(cache))
    assert _kept(cache) == []


def test_missing_compiler_is_infrastructure(fake, monkeypatch) -> None:
    _, pybind, cache = fake
    monkeypatch.setenv("NPUKB_CXX", "/nonexistent/g++")
    with pytest.raises(InfrastructureError, match="no host C\\+\\+ compiler"):
        binding.build_binding(pybind, cache, "AddCustom", "add_custom", host_compiler(cache))


def test_genuine_diagnostic_is_the_tasks_binding_error(fake) -> None:
    mode_file, pybind, cache = fake
    mode_file.write_text("error")
    with pytest.raises(binding.BindingError, match="was not declared") as caught:
        binding.build_binding(pybind, cache, "AddCustom", "add_custom", host_compiler(cache))
    assert not isinstance(caught.value, InfrastructureError)
    # the headers' diagnostic is remembered for the precompiled header (the same headers fail again);
    # the module itself is never cached as failed
    assert [p.parent.name[:4] for p in _kept(cache)] == ["pch-", "pch-"]

"""Shared fixtures: one ascendc-sim toolchain per session (host and toolchain
tests); a tiny Qwen3 model built offline and an ``npukb serve`` subprocess on a free localhost port
(generation and Ascend-CoT tests)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
from npukernelbench.toolchains.ascendc_sim.build_cache import default_root
from npukernelbench.toolchains.base import KernelProject, ParamSlot

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(scope="session")
def sim(tmp_path_factory: pytest.TempPathFactory) -> AscendCSimToolchain:
    """The simulator with its own cache (see below). No usable compiler is a failure, never a skip: a CI
    machine without g++ must not pass these tests by skipping them."""
    # With NPUKB_CACHE_DIR set (CI sets it), the machine's cache: its builds are content-addressed and
    # published by rename, so sharing changes no result, and a private one per xdist worker holds a
    # second copy of every precompiled header (gigabytes: a full CI run once filled its disk).
    shared = os.environ.get("NPUKB_CACHE_DIR")
    root = default_root() if shared else tmp_path_factory.getbasetemp() / "ascendc-sim-cache"
    toolchain = AscendCSimToolchain(cache_dir=root)
    reason = toolchain.unavailable_reason()
    if reason:
        pytest.fail(f"ascendc-sim cannot run here: {reason}", pytrace=False)
    return toolchain


def _project(op: str, kernel: str, host: str, kernel_src: str, params: list[tuple[str, str, str, str]],
            extra: dict[str, str] | None = None) -> KernelProject:
    files = {f"op_host/{kernel}.cpp": host, f"op_kernel/{kernel}.cpp": kernel_src, **(extra or {})}
    return KernelProject(op=op, kernel=kernel, files=files,
                         params=tuple(ParamSlot(name, role, ptype, dt) for name, role, ptype, dt in params))


@pytest.fixture(scope="session")
def make_project():
    """``make_project(op, kernel, host, kernel_src, params, extra_files)`` -> KernelProject."""
    return _project


HAVE_TRANSFORMERS = importlib.util.find_spec("transformers") is not None and \
    importlib.util.find_spec("tokenizers") is not None


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not HAVE_TRANSFORMERS:
        pytest.skip("needs transformers and tokenizers (pip install -e .[hf])")
    from kernelgen_lm.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "tiny-qwen3")


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


class ServeProcess:
    """``python -m npukernelbench.serve`` on port 0; ``url`` is read from its 'listening on' line."""

    def __init__(self, model: Path, *extra: str, startup_timeout: float = 120):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "npukernelbench.serve", "--model", str(model), "--port", "0", "--quiet", *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=subprocess_env())
        deadline = time.monotonic() + startup_timeout
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if "listening on" in line or not line:
                break
        if "listening on" not in line:
            log = self.stderr()[-2000:]
            self.stop()
            raise RuntimeError(f"npukb serve did not start: {line!r} {log}")
        self.url = line.split("listening on ", 1)[1].split()[0]

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.log.close()


@pytest.fixture(scope="session")
def served_model(tiny_model: Path):
    server = ServeProcess(tiny_model)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def python_env() -> dict[str, str]:
    """Environment of ``python -m npukernelbench...`` subprocesses (this checkout's src first)."""
    return subprocess_env()


@pytest.fixture(scope="session")
def serve_process() -> type[ServeProcess]:
    """``serve_process(model, *flags, startup_timeout=...)`` starts an ``npukb serve`` subprocess."""
    return ServeProcess

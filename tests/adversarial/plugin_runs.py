"""Running the plugin as a user does, in a real ``pytest`` subprocess, for the adversarial tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADD_CUSTOM = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"


def plugin_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"     # fast start-up: only the plugin under test
    env.update(extra)
    return env


def plugin_argv(workdir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir", str(workdir),
            "-p", "npukernelbench.plugin", "--shapes=static", *args]


def pytest_run(workdir: Path, *args: str, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(plugin_argv(workdir, *args), cwd=workdir, env=plugin_env(**env), capture_output=True,
                          text=True, timeout=timeout)


def copy_add_custom(root: Path) -> Path:
    shutil.copytree(ADD_CUSTOM, root / "level1" / "math" / "add_custom")
    return root


def clean_error(proc: subprocess.CompletedProcess, *needles: str) -> str:
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and "INTERNALERROR" not in out, out[-4000:]
    for needle in needles:
        assert needle in out, f"{needle!r} not in output:\n{out[-4000:]}"
    return out

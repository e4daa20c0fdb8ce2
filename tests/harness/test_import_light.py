"""Loading the pytest plugin (and what its configure hook and ``npukb --help`` import) stays light:
numpy and torch are imported only by the hooks and commands that evaluate something (Ray only when a
reward pool starts)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "torch", "transformers", "vllm", "ray")


@pytest.mark.parametrize("modules", [
    ("npukernelbench.plugin",),
    # what pytest_configure imports: run state, option parsing, model-spec check, run directory
    ("npukernelbench.plugin", "npukernelbench.session", "npukernelbench.generators", "npukernelbench.store",
     "npukernelbench.options", "npukernelbench.registry", "npukernelbench.generators.base"),
    ("npukernelbench.cli",),
    ("kernelgen_lm.reward_pool",),          # Ray is imported when a pool starts, not before
])
def test_no_heavy_imports(modules: tuple[str, ...]) -> None:
    script = (f"import importlib, json, sys\nfor m in {list(modules)!r}: importlib.import_module(m)\n"
              f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_the_check_can_fail() -> None:
    """The same probe sees numpy when a module that needs it is imported (spec -> dtypes)."""
    script = "import sys, npukernelbench.spec\nprint('numpy' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "True", proc.stderr

"""Importing a case's Python files (``reference.py``, the public layout's ``module.py`` and
``prepare_inputs.py``) by path, once per path, with the CPU shims of Ascend-only packages."""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from npukernelbench.npu_shims import import_shims

_MODULES: dict[str, types.ModuleType] = {}


class CaseReferenceError(RuntimeError):
    """The reference itself failed (a bug in the case, not in the candidate)."""


def load_module(path: Path, shims: Callable[[], contextlib.AbstractContextManager[Any]] = import_shims
                ) -> types.ModuleType:
    """Import a Python file by path under a unique module name (cached per path), with the CPU shims
    of ``torch_npu``, ``kernel_gen_ops`` and ``framework.utils`` for names that are not installed."""
    key = str(Path(path).resolve())
    if key in _MODULES:
        return _MODULES[key]
    name = "npukb_case_" + str(abs(hash(key)))
    spec = importlib.util.spec_from_file_location(name, key)
    if spec is None or spec.loader is None:
        raise CaseReferenceError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    folder = str(Path(key).parent)
    sys.path.insert(0, folder)          # sibling imports (module.py <-> prepare_inputs.py)
    try:
        sys.modules[name] = module
        with shims():
            spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise CaseReferenceError(f"importing {path} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        try:
            sys.path.remove(folder)
        except ValueError:
            pass
    _MODULES[key] = module
    return module

"""Task layouts: the on-disk task formats the harness reads, registered like toolchains.

A name maps to a ``module:Class`` string (imported when first needed); installed packages add theirs
under the entry-point group ``npukernelbench.layouts`` (see ``npukernelbench.registry``). Built in:

- ``case-toml``: our own format (``case.toml`` + ``reference.py``; :mod:`.case_toml`);
- ``upstream``: the public NPUKernelBench task format, read unchanged (``api_desc.md`` + ``question/``
  + ``answer/0/`` + ``validation/``; :mod:`.upstream`);
- ``mkb``: MultiKernelBench's reference modules (``reference/<category>/<name>.py``), one task per
  file, with its AscendC answer format (:mod:`.mkb`).

Generic code asks this module which layout a folder or a TaskSpec has, and never tests layout names
itself: everything a layout decides goes through the :class:`~.base.Layout` protocol.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from npukernelbench.registry import Registry, RegistryError

if TYPE_CHECKING:
    from npukernelbench.layouts.base import Layout
    from npukernelbench.spec import TaskSpec

LAYOUTS = Registry("layout", "npukernelbench.layouts", {
    "case-toml": "npukernelbench.layouts.case_toml.layout:CaseTomlLayout",
    "upstream": "npukernelbench.layouts.upstream.layout:UpstreamLayout",
    "mkb": "npukernelbench.layouts.mkb.layout:MkbLayout",
})


@functools.cache
def layout_named(name: str) -> Layout:
    """The layout registered as ``name`` (one instance per process); RegistryError when there is none."""
    try:
        layout = LAYOUTS.load(name)()
    except ImportError as exc:
        raise RegistryError(f"cannot load layout {name!r}: {exc}") from exc
    return layout


def all_layouts() -> tuple[Layout, ...]:
    """Every registered layout, the built-in ones first."""
    return tuple(layout_named(name) for name in LAYOUTS.names())


def detect(folder: Path) -> Layout | None:
    """The layout whose task folder ``folder`` is, or None (the first that recognises it)."""
    folder = Path(folder)
    return next((layout for layout in all_layouts() if layout.detect(folder)), None)


def layout_of(spec: TaskSpec) -> Layout:
    """The layout ``spec`` was loaded by."""
    return layout_named(spec.layout)

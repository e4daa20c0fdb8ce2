"""Input groups of MultiKernelBench's grouped tasks (``reference/npukernelbench_level<N>/<n>_<name>.py``).

Such a reference defines ``get_input_groups()`` instead of ``get_inputs()``: a list of input lists, one
per case, which MultiKernelBench runs as they are (no value profiles, no repeated trials). Its sizes come
from JSON literals (usually the sibling ``<n>_<name>.json``, one case a line), so they cannot be scaled
down: a group whose tensors hold more than the element budget is left out instead. The groups are sized
first on torch's meta device (nothing allocated); when some are left out and the module reads a sibling
JSON with one line per group, the module is executed again beside a copy of that JSON holding only the
kept lines, so that the large groups are never allocated. Runs only in the confined reference child
(:mod:`.driver`): the reference module is executed.
"""

from __future__ import annotations

import shutil
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npukernelbench.layouts.mkb import scaling

GROUPS = "get_input_groups"


@dataclass(frozen=True)
class Groups:
    """The kept groups' inputs, how many groups the reference has, and the elements of the largest kept one."""

    inputs: list[list[Any]]
    total: int
    left_out: int
    largest: int
    smallest_left_out: int


def is_grouped(module: types.ModuleType) -> bool:
    return callable(getattr(module, GROUPS, None)) and not callable(getattr(module, "get_inputs", None))


def _elements(values: Any) -> int:
    import torch

    return sum(v.numel() for v in scaling.flat(values) if isinstance(v, torch.Tensor))


def group_sizes(module: types.ModuleType) -> list[int] | None:
    """Elements of each group's tensors, counted on the meta device; None when the reference cannot
    build its groups there (it reads tensor values, say)."""
    import torch

    try:
        with torch.device("meta"):
            groups = list(getattr(module, GROUPS)())
    except Exception:                   # noqa: BLE001 - the reference needs real tensors: count them for real
        return None
    return [_elements(g) for g in groups]


def _json_lines(path: Path) -> list[str]:
    sibling = path.with_suffix(".json")
    if not sibling.is_file():
        return []
    return [line for line in sibling.read_text(encoding="utf-8").splitlines() if line.strip()]


def _reloaded_with(path: Path, lines: list[str], work: Path) -> types.ModuleType:
    """The reference executed as if it lay in ``work/groups`` beside a JSON of ``lines`` only."""
    folder = work / "groups"
    folder.mkdir(exist_ok=True)
    copy = folder / path.name
    shutil.copyfile(path, copy)
    copy.with_suffix(".json").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return scaling.load_module(copy, {})


def input_groups(path: Path, module: types.ModuleType, budget: int, seed: int, work: Path) -> Groups:
    """The groups within ``budget`` elements (every group when ``budget`` is 0), drawn after
    ``torch.manual_seed(seed)``."""
    import torch

    sizes = group_sizes(module)
    keep = None if sizes is None else [budget <= 0 or s <= budget for s in sizes]
    if sizes is not None and keep is not None and not any(keep):      # nothing to draw
        return Groups(inputs=[], total=len(sizes), left_out=len(sizes), largest=0,
                      smallest_left_out=min(sizes, default=0))
    source = module
    if keep is not None and not all(keep):
        lines = _json_lines(path)
        if len(lines) == len(keep):
            source = _reloaded_with(path, [ln for ln, k in zip(lines, keep, strict=True) if k], work)
    torch.manual_seed(seed)
    if source is module or keep is None:
        groups = [list(g) for g in getattr(module, GROUPS)()]
        if keep is None:
            sizes = [_elements(g) for g in groups]
            keep = [budget <= 0 or s <= budget for s in sizes]
        groups = [g for g, k in zip(groups, keep, strict=True) if k]
    else:
        groups = [list(g) for g in getattr(source, GROUPS)()]
        if len(groups) != sum(keep):
            raise RuntimeError(f"{GROUPS}() gave {len(groups)} groups from the kept JSON lines, expected {sum(keep)}")
    assert sizes is not None
    kept_sizes = [s for s, k in zip(sizes, keep, strict=True) if k]
    dropped = [s for s, k in zip(sizes, keep, strict=True) if not k]
    return Groups(inputs=groups, total=len(sizes), left_out=len(dropped), largest=max(kept_sizes, default=0),
                  smallest_left_out=min(dropped, default=0))

"""Precision verdicts of the public layout: the upstream harness's ``check_precision`` helper (which task
files import from ``framework.utils``) and the reading of what ``custom_check_precision`` returns.

``check_precision(outputs, outputs_new, max_abs_error, max_rel_error)``: an element fails when its
absolute error exceeds ``max_abs_error`` *and* its relative error ``|a - b| / (|a| + 1e-7)`` exceeds
``max_rel_error``; lists of outputs are compared pairwise. It returns ``(1 or 0, abs_diffs, rel_diffs)``
with the flattened differences of every pair, as upstream does.
"""

from __future__ import annotations

from typing import Any


def check_precision(outputs: Any, outputs_new: Any, max_abs_error: float, max_rel_error: float
                    ) -> tuple[int, Any, Any]:
    import torch

    refs = outputs if isinstance(outputs, list) else [outputs]
    news = outputs_new if isinstance(outputs_new, list) else [outputs_new]
    ok = True
    abs_parts, rel_parts = [], []
    for ref, new in zip(refs, news, strict=False):
        abs_diff = torch.abs(ref - new)
        rel_diff = abs_diff / (torch.abs(ref) + 1e-7)
        abs_parts.append(abs_diff.reshape(-1))
        rel_parts.append(rel_diff.reshape(-1))
        if bool(((abs_diff > max_abs_error) & (rel_diff > max_rel_error)).any()):
            ok = False
    empty = torch.zeros(0)
    return (1 if ok else 0), (torch.cat(abs_parts) if abs_parts else empty), (torch.cat(rel_parts) if rel_parts
                                                                             else empty)


class VerdictError(ValueError):
    """A custom precision check returned something that is not a verdict."""


def verdict_of(value: Any) -> bool:
    """The pass/fail verdict of what ``custom_check_precision`` returned: the first element of a
    tuple or list (``(is_pass, abs_diff, rel_diff)``), else the value itself; a bool, a number (non-zero
    passes) or a tensor (every element true)."""
    import torch

    if isinstance(value, tuple | list):
        if not value:
            raise VerdictError("custom_check_precision returned an empty sequence")
        value = value[0]
    if isinstance(value, torch.Tensor):
        if value.numel() == 0:
            raise VerdictError("custom_check_precision returned an empty tensor")
        return bool(value.bool().all())
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, bool | int | float):
        return bool(value)
    raise VerdictError(f"custom_check_precision returned {type(value).__name__} {value!r}, not a verdict")

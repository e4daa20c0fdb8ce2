"""Precision verdicts of the public layout: the upstream harness's ``check_precision`` helper (which task
files import from ``framework.utils``) and the reading of what ``custom_check_precision`` returns.

``check_precision(outputs, outputs_new, max_abs_error, max_rel_error)``: an element fails when its
absolute error exceeds ``max_abs_error`` *and* its relative error ``|a - b| / (|a| + 1e-7)`` exceeds
``max_rel_error``; lists of outputs are compared pairwise. It returns ``(1 or 0, abs_diffs, rel_diffs)``
with the flattened differences of every pair, as upstream does; they are computed when the task's code
uses them (``deferred_tensor``), not for the verdict the harness reads.
"""

from __future__ import annotations

from typing import Any

from npukernelbench.layouts.upstream.deferred_tensor import DeferredTensor


def check_precision(outputs: Any, outputs_new: Any, max_abs_error: float, max_rel_error: float
                    ) -> tuple[int, Any, Any]:
    refs = outputs if isinstance(outputs, list) else [outputs]
    news = outputs_new if isinstance(outputs_new, list) else [outputs_new]
    ok = all(_within(ref, new, max_abs_error, max_rel_error)
             for ref, new in zip(refs, news, strict=False))
    # the differences are computed only if the task's code uses them (the harness reads the verdict)
    pairs = list(zip(refs, news, strict=False))
    cache: list[tuple[Any, Any]] = []

    def differences(which: int) -> Any:
        if not cache:
            cache.append(_differences(pairs))
        return cache[0][which]

    return (1 if ok else 0), DeferredTensor(lambda: differences(0)), DeferredTensor(lambda: differences(1))


def _within(ref: Any, new: Any, max_abs_error: float, max_rel_error: float) -> bool:
    """No element of the pair exceeds both limits (chunk by chunk: the temporaries stay small)."""
    import torch

    ref, new = torch.broadcast_tensors(ref, new)
    flat_ref, flat_new = ref.reshape(-1), new.reshape(-1)
    for begin in range(0, ref.numel(), _CHUNK):
        part = slice(begin, begin + _CHUNK)
        a = torch.abs(flat_ref[part] - flat_new[part])
        r = a / (torch.abs(flat_ref[part]) + 1e-7)
        if bool(((a > max_abs_error) & (r > max_rel_error)).any()):
            return False
    return True


def _differences(pairs: list[tuple[Any, Any]]) -> tuple[Any, Any]:
    """The flattened absolute and relative differences of every pair, joined."""
    import torch

    abs_parts, rel_parts = [], []
    for ref, new in pairs:
        ref, new = torch.broadcast_tensors(ref, new)
        wide = torch.promote_types(ref.dtype, new.dtype)
        abs_diff = torch.empty(ref.numel(), dtype=wide)
        rel_diff = torch.empty(ref.numel(), dtype=torch.promote_types(wide, torch.float32) if not
                               wide.is_floating_point else wide)
        flat_ref, flat_new = ref.reshape(-1), new.reshape(-1)
        # chunk by chunk: the two result tensors are the only full-size memory, however large the output
        for begin in range(0, ref.numel(), _CHUNK):
            part = slice(begin, begin + _CHUNK)
            a = torch.abs(flat_ref[part] - flat_new[part])
            abs_diff[part], rel_diff[part] = a, a / (torch.abs(flat_ref[part]) + 1e-7)
        abs_parts.append(abs_diff)
        rel_parts.append(rel_diff)
    return _joined(abs_parts), _joined(rel_parts)


# Elements per step of check_precision (its temporaries stay this small).
_CHUNK = 1 << 22


def _joined(parts: list[Any]) -> Any:
    import torch

    if len(parts) == 1:
        return parts[0]
    return torch.cat(parts) if parts else torch.zeros(0)


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

"""Where the values a MultiKernelBench ``ModelNew`` hands its custom operator come from.

``ModelNew`` may move data before a call (view, reshape, transpose, contiguous, slicing, concatenation,
padding, a dtype cast) but not compute: a ``ModelNew`` that computes the result with PyTorch and passes
it to a kernel that merely copies it would otherwise pass every output check. The check runs in the
harness, on data the harness holds: each call's input tensors as the call file gave them, what the
simulator wrote (:class:`CallRecord`), and the trial inputs the *reference* child drew.

* A call input is *input-dependent* when, over the trials of one seed, the same position (the k-th call
  of the trial, its j-th argument) holds different values in different trials; parameters and
  constants made at init hold the same values in every trial and are left alone. Trials that make
  different numbers of calls cannot be compared position by position: every call input then counts as
  input-dependent. A single trial has nothing to compare: nothing counts as input-dependent.
* An input-dependent call input must consist only of values found, after a cast to its dtype, in its
  trial's inputs, in what that trial's earlier calls wrote, or in :data:`PAD_VALUES` (bit patterns
  compared; every NaN matches every NaN). Data movement keeps this true; arithmetic breaks it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

PAD_VALUES = (0.0, -0.0, math.inf, -math.inf)       # what padding may add (cast to the input's dtype)
_INT_OF_SIZE = {1: "int8", 2: "int16", 4: "int32", 8: "int64"}


@dataclass
class CallRecord:
    """One operator call as the harness saw it: its input tensors before the call (labelled by their
    argument's position, "J" or "J.M" for the M-th tensor of a tensor list) and what the simulator wrote."""

    inputs: list[tuple[str, Any]] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)


def bits(tensor: Any) -> Any:
    """``tensor``'s elements as flat integers of the same width (NaNs made one pattern; bool as 0/1;
    a complex element as its two parts)."""
    import torch

    t = tensor.detach().reshape(-1)
    if t.dtype == torch.bool:
        return t.to(torch.int8)
    if t.is_complex():
        t = torch.view_as_real(t).reshape(-1)
    if t.is_floating_point():
        nan = torch.isnan(t)
        if bool(nan.any()):
            t = t.masked_fill(nan, math.nan)
    return t.contiguous().view(getattr(torch, _INT_OF_SIZE[t.element_size()]))


def _tensors(value: Any) -> list[Any]:
    """The tensors (and Python numbers, as tensors) inside a trial input."""
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, bool | int | float):
        return [torch.tensor([value])]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors(v)]
    return []


def _cast_bits(tensor: Any, dtype: Any, unique: bool = True) -> Any:
    """``tensor`` cast to ``dtype``, as (unique, sorted) bit patterns (empty when it cannot be cast)."""
    import torch

    try:
        flat = bits(tensor.detach().to(dtype))
    except (RuntimeError, TypeError):
        return torch.empty(0, dtype=bits(torch.empty(0, dtype=dtype)).dtype)
    return torch.unique(flat) if unique else flat


def _pad_values(dtype: Any) -> Any:
    """:data:`PAD_VALUES` as ``dtype`` (an integer or bool dtype: 0 alone)."""
    import torch

    probe = torch.empty(0, dtype=dtype)
    values = torch.tensor(PAD_VALUES) if probe.is_floating_point() or probe.is_complex() else torch.tensor([0])
    return _cast_bits(values, dtype)


def _absent(values: Any, known: Any) -> Any:
    """The ``values`` (sorted, unique) that ``known`` (sorted, unique) lacks."""
    import torch

    if not known.numel() or not values.numel():
        return values
    at = torch.searchsorted(known, values).clamp_max(known.numel() - 1)
    return values[known[at] != values]


def _same(a: Any, b: Any) -> bool:
    import torch

    return a.dtype == b.dtype and a.shape == b.shape and bool(torch.equal(bits(a), bits(b)))


def _dependent(calls: Sequence[CallRecord], trial_of: list[int], counts_agree: bool) -> list[set[str]]:
    """Per call, the labels of its input-dependent inputs."""
    trials = max(trial_of, default=-1) + 1
    if not counts_agree:
        return [{label for label, _ in call.inputs} for call in calls]
    if trials < 2:
        return [set() for _ in calls]
    per = len(calls) // trials
    out: list[set[str]] = []
    for i, call in enumerate(calls):
        k = i % per
        found = set()
        for label, tensor in call.inputs:
            for t in range(trials):
                other = dict(calls[t * per + k].inputs).get(label)
                if other is None or not _same(tensor, other):
                    found.add(label)
                    break
        out.append(found)
    return out


def foreign_call_input(calls: Sequence[CallRecord], trial_inputs: Sequence[Sequence[Any]],
                       calls_per_trial: Sequence[int] | None) -> str | None:
    """The first call input that holds values computed outside the kernel, as a one-line reason ("operator
    call K's argument J ..."); None when every input-dependent call input is made of the trial's input
    values, the values its earlier calls wrote and :data:`PAD_VALUES`.

    ``calls_per_trial`` says how many of ``calls``, in order, each trial made (the checker counts them:
    it shows the candidate's child one more trial at a time). When it does not add up (one count per
    trial, summing to the calls), the trials are not told apart: every call input counts as
    input-dependent and may draw on every trial's inputs and every earlier call's outputs."""
    import torch

    counts = list(calls_per_trial or [])
    valid = len(counts) == len(trial_inputs) and all(c >= 0 for c in counts) and sum(counts) == len(calls)
    trial_of = [t for t, c in enumerate(counts) for _ in range(c)] if valid else [0] * len(calls)
    sources = [_tensors(list(v)) for v in trial_inputs] if valid else [_tensors([list(v) for v in trial_inputs])]
    dependent = _dependent(calls, trial_of, valid and len(set(counts)) == 1)
    cache: dict[tuple[str, int, int], Any] = {}     # (dtype, call or -1 for the inputs, output or trial) -> bits
    for i, call in enumerate(calls):
        t = trial_of[i]
        first = trial_of.index(t)
        for label, tensor in call.inputs:
            if label not in dependent[i] or tensor.numel() == 0:
                continue
            dtype, name = tensor.dtype, str(tensor.dtype)
            query = bits(tensor)
            if any(s.dtype == dtype and s.numel() == tensor.numel() and torch.equal(bits(s), query)
                   for s in sources[t]):
                continue                                 # an input passed as it is
            if (name, -1, t) not in cache:
                cache[name, -1, t] = torch.unique(torch.cat([_cast_bits(s, dtype, unique=False) for s in sources[t]]
                                                            + [_pad_values(dtype)]))
            missing = _absent(torch.unique(query), cache[name, -1, t])
            for earlier in range(first, i):
                for o, out in enumerate(calls[earlier].outputs):
                    if not missing.numel():
                        break
                    if (name, earlier, o) not in cache:
                        cache[name, earlier, o] = _cast_bits(out, dtype)
                    missing = _absent(missing, cache[name, earlier, o])
            bad = int(torch.isin(query, missing).sum()) if missing.numel() else 0
            if bad:
                where = f"trial {t}" if valid else "any trial"
                return (f"operator call {i}'s argument {label} holds values computed outside the kernel: {bad} of "
                        f"{tensor.numel()} elements are neither values of {where}'s inputs nor values its earlier "
                        "operator calls wrote (only data movement may happen before a call: view, reshape, "
                        "transpose, slicing, concatenation, padding, dtype casts)")
    return None

"""Shape cases: the static ones listed by a spec, our case format's hypothesis strategy for dynamic
ones, and the hypothesis search every layout's checker runs its drawn cases through.

A :class:`ShapeCase` is what one check runs on: input shapes, the type-variable binding and the
attribute values (for the upstream layout: one row of ``test_cases.csv``, the parameters its
``get_inputs`` reads). Hypothesis is imported only when a dynamic strategy is built.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.dtypes import dtype as lookup_dtype
from npukernelbench.spec import TaskSpec


@dataclass(frozen=True)
class ShapeCase:
    shapes: Mapping[str, Any]            # input name -> shape (list of shapes for tensor lists)
    types: Mapping[str, str]             # type variable -> dtype
    attrs: Mapping[str, Any]
    label: str                           # "static[0]" or "dynamic"
    row: Mapping[str, Any] | None = None  # upstream layout: the CSV row handed to get_inputs
    seed: int = 0
    kind: str = "static"                 # static | dynamic

    def describe(self) -> str:
        if self.row is not None:
            drawn = "drawn " if self.kind == "dynamic" else ""
            return f"{drawn}case " + ", ".join(f"{k}={v}" for k, v in self.row.items())
        parts = [f"{name}={list(shape)}" for name, shape in self.shapes.items()]
        if self.types:
            parts.append(", ".join(f"{k}={v}" for k, v in self.types.items()))
        shown = {k: v for k, v in self.attrs.items() if v is not None}
        if shown:
            parts.append(", ".join(f"{k}={v!r}" for k, v in shown.items()))
        return " ".join(parts)

    def key(self) -> str:
        return repr((sorted((k, str(v)) for k, v in self.shapes.items()), sorted(self.types.items()),
                     sorted((k, repr(v)) for k, v in self.attrs.items()),
                     sorted(self.row.items()) if self.row else None))


class DrawRejected(Exception):
    """A drawn case that the task's own code does not accept (its input preparation or its reference
    raises on it): the search discards the draw; it says nothing about the candidate."""


def static_cases(spec: TaskSpec) -> list[ShapeCase]:
    return [ShapeCase(shapes=dict(case.shapes), types=dict(case.types), attrs=dict(case.attrs),
                      label=f"static[{case.index}]", row=case.row, seed=case.seed) for case in spec.cases]


def _element_align(spec: TaskSpec, types: Mapping[str, str]) -> int:
    """Smallest element count whose bytes are a multiple of 32 for every input dtype."""
    align = 1
    for decl in spec.inputs:
        size = lookup_dtype(types.get(decl.dtype, decl.dtype)).itemsize
        need = max(1, 32 // size)
        align = max(align, need)
    return align


def case_strategy(spec: TaskSpec):
    """A hypothesis strategy of dynamic :class:`ShapeCase` values for ``spec``.

    ``spec.dynamic.hook`` names ``draw_case(draw, spec)`` in reference.py returning
    ``{"shapes": ..., "types": ..., "attrs": ...}``; otherwise the declarative parameters are used:
    a rank in ``ranks``, dims in ``dim``, element count within [min_elements, max_elements], last dim
    a multiple of ``multiple_of`` (and 32-byte aligned unless ``unaligned``), one shape for all
    inputs when ``same_shape``, a type combo and attribute choices.
    """
    from hypothesis import strategies as st

    dyn = spec.dynamic
    combos = list(dyn.type_combos or spec.type_combos or ({},))
    attr_defaults = {a.name: a.default for a in spec.attrs}
    if dyn.hook:
        from npukernelbench.module_loader import load_module

        hook = getattr(load_module(spec.reference.path), dyn.hook, None)
        if hook is None:
            raise ValueError(f"{spec.folder / 'case.toml'}: field 'dynamic.hook': {spec.reference.path.name} "
                             f"defines no function {dyn.hook!r}")

        @st.composite
        def hooked(draw):
            drawn = hook(draw, spec)
            attrs = dict(attr_defaults)
            attrs.update(drawn.get("attrs", {}))
            return ShapeCase(shapes=drawn["shapes"], types=drawn.get("types", combos[0]), attrs=attrs,
                             label="dynamic", kind="dynamic")

        return hooked()

    @st.composite
    def shape_of(draw, types: Mapping[str, str], max_elements: int | None = None) -> list[int]:
        rank = draw(st.integers(dyn.ranks[0], dyn.ranks[1]))
        lo, hi = dyn.dim
        step = dyn.multiple_of
        if not dyn.unaligned:
            step = max(step, _element_align(spec, types))
        dims: list[int] = []
        budget = dyn.max_elements if max_elements is None else max_elements
        for axis in range(rank):
            last = axis == rank - 1
            cap = max(lo, min(hi, budget))
            if last:
                units_lo = max(1, -(-max(lo, 1) // step))
                units_hi = max(units_lo, cap // step)
                d = draw(st.integers(units_lo, units_hi)) * step
            else:
                d = draw(st.integers(lo, cap))
            dims.append(d)
            budget = max(1, budget // max(d, 1))
        count = 1
        for d in dims:
            count *= d
        if count < dyn.min_elements:
            dims[-1] = dims[-1] * (-(-dyn.min_elements // max(count, 1)))
        return dims

    @st.composite
    def list_shape(draw, types: Mapping[str, str], cap: int) -> list[int]:
        """One tensor of a list: mostly a regular drawn shape within ``cap`` elements, sometimes a tiny
        rank-1 tensor (1 to 2x the 32-byte element alignment, or empty when ``dim`` allows 0)."""
        if draw(st.integers(0, 3)) == 0:
            tiny_lo = 0 if dyn.dim[0] == 0 else 1
            return [draw(st.integers(tiny_lo, 2 * _element_align(spec, types)))]
        return draw(shape_of(types, cap))

    @st.composite
    def case(draw) -> ShapeCase:
        types = draw(st.sampled_from(combos))
        has_list = any(d.kind in ("list", "scalar_list") for d in spec.inputs)
        n = draw(st.integers(dyn.list_len[0], dyn.list_len[1])) if has_list else 0
        # Tensor lists: one length n and n independent per-tensor shapes, shared by every list input
        # (Foreach lists are paired element by element); max_elements bounds the whole list.
        list_shapes = [draw(list_shape(types, max(1, dyn.max_elements // max(n, 1)))) for _ in range(n)]
        needs_shared = any(d.kind == "tensor" for d in spec.inputs)
        shared = draw(shape_of(types)) if needs_shared else []
        shapes: dict[str, Any] = {}
        for decl in spec.inputs:
            if decl.optional and not draw(st.booleans()):
                continue
            if decl.kind == "list":
                shapes[decl.name] = list_shapes
            elif decl.kind == "scalar":
                shapes[decl.name] = [1]
            elif decl.kind == "scalar_list":
                shapes[decl.name] = [n]
            else:
                shapes[decl.name] = shared if dyn.same_shape else draw(shape_of(types))
        attrs = dict(attr_defaults)
        for name, choices in dyn.attrs.items():
            attrs[name] = draw(st.sampled_from(list(choices)))
        return ShapeCase(shapes=shapes, types=dict(types), attrs=attrs, label="dynamic", kind="dynamic")

    return case()


@dataclass
class DynamicOutcome:
    """Result of a dynamic-shape search: the minimal failing case (after shrinking), if any."""

    examples: int = 0
    failure: ShapeCase | None = None
    failure_message: str = ""
    replay_seed: int = 0
    seen: dict[str, str | None] = field(default_factory=dict)


_REJECTED = "\0rejected"


def search(strategy: Any, check, examples: int, seed: int, shrink_budget: int = 25,
           storage_dir: Path | None = None) -> DynamicOutcome:
    """Run ``check(case) -> str | None`` (None: correct; else the failure message) on cases drawn from
    the hypothesis ``strategy``, programmatically (no nested pytest), seeded with ``seed``. A case
    for which ``check`` raises :class:`DrawRejected` is discarded (hypothesis draws another, within its
    own budget of invalid draws). A failure shrinks to a minimal case; ``shrink_budget`` bounds the
    extra checks spent shrinking (results are memoised per case so the final replay is consistent).
    Hypothesis's own files go under ``storage_dir`` (the run's scratch directory), else a throw-away
    temporary directory."""
    from hypothesis import HealthCheck, Phase, given, reject, settings
    from hypothesis import seed as hseed
    from hypothesis.errors import Unsatisfiable

    outcome = DynamicOutcome(replay_seed=seed)
    first_failure = {"done": False}
    budget = {"left": shrink_budget}

    class _Failed(AssertionError):
        pass

    def body(case: ShapeCase) -> None:
        key = case.key()
        if key in outcome.seen:
            message = outcome.seen[key]
        elif first_failure["done"] and budget["left"] <= 0:
            message = None                 # shrink budget spent: treat unseen cases as passing
        else:
            if first_failure["done"]:
                budget["left"] -= 1
            try:
                message = check(case)
            except DrawRejected:
                message = _REJECTED
            else:
                outcome.examples += 1
            outcome.seen[key] = message
        if message == _REJECTED:
            reject()
        if message is not None:
            first_failure["done"] = True
            outcome.failure, outcome.failure_message = case, message   # the final replay is the minimal case
            raise _Failed(message)

    test = settings(max_examples=max(1, examples), database=None, deadline=None, derandomize=False,
                    phases=(Phase.explicit, Phase.generate, Phase.shrink), print_blob=False,
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False)(
        given(strategy)(body))
    test = hseed(seed)(test)
    with _private_hypothesis_storage(storage_dir):
        try:
            test()
        except (_Failed, Unsatisfiable):   # Unsatisfiable: every draw was rejected, nothing was checked
            pass
    return outcome


@contextlib.contextmanager
def _private_hypothesis_storage(storage_dir: Path | None) -> Iterator[None]:
    """Hypothesis caches constants under ``./.hypothesis``; a benchmark run must write nothing outside
    its run and scratch directories, so the search uses a throw-away storage directory (restored after,
    so the user's own hypothesis tests keep theirs)."""
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    folder = _private_folder(storage_dir)
    configuration.set_hypothesis_home_dir(folder)
    try:
        yield
    finally:
        configuration.set_hypothesis_home_dir(previous)
        shutil.rmtree(folder, ignore_errors=True)
        if storage_dir is not None:
            with contextlib.suppress(OSError):     # still used by another worker of the run: it stays
                storage_dir.rmdir()                # an empty scratch directory is not left behind


def _private_folder(storage_dir: Path | None) -> str:
    """A fresh folder under ``storage_dir`` (created when absent; another worker may remove it when it
    is empty between our mkdir and mkdtemp, hence the retries)."""
    if storage_dir is None:
        return tempfile.mkdtemp(prefix="npukb-hypothesis-")
    for _ in range(10):
        storage_dir.mkdir(parents=True, exist_ok=True)
        try:
            return tempfile.mkdtemp(prefix="npukb-hypothesis-", dir=storage_dir)
        except FileNotFoundError:
            continue
    return tempfile.mkdtemp(prefix="npukb-hypothesis-", dir=storage_dir)

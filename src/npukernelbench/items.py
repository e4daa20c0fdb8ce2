"""pytest collectors and items: one collector per case folder, one item per (task, sample)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from npukernelbench.session import INFRA_KEY, STATE
from npukernelbench.spec import SpecError, marker_name

RESULT_KEY = "npukb_result"


class SampleFailure(Exception):
    """A sample that did not pass; its message is the short failure report."""


class _CaseCollector:
    """What a case folder and a one-file task share: one :class:`SampleItem` per sample (per CSV row and
    sample in the upstream generation modes: ``modes.expand``)."""

    path: Path
    config: Any
    nodeid: str
    CollectError: type[Exception]

    def collect(self):
        from npukernelbench.cases import load_case
        from npukernelbench.modes import ModeError, expand

        state = self.config.stash[STATE]
        try:
            specs = expand(load_case(Path(self.path)), state.options.mode)
        except (SpecError, ModeError) as exc:
            raise self.CollectError(str(exc)) from None
        for spec in specs:
            yield from self._samples(spec, state.options.samples, state.options.shapes)

    def _samples(self, spec: Any, samples: int, shapes: str) -> Iterator[SampleItem]:
        for sample in range(samples):
            name = f"{spec.case_id}[s{sample}]"
            # the node id given as a string, parsed like the ids pytest reads back (``--lf``), so that the
            # "[sI]" is the id's parameter part both ways
            item = SampleItem.from_parent(self, name=name, nodeid=f"{self.nodeid}::{name}", spec=spec,
                                          sample=sample)
            for mark in (*spec.markers, *(("static", "dynamic") if shapes == "both" else (shapes,)), "npukb"):
                self.config.addinivalue_line("markers", f"{mark}: NPUKernelBench marker")
                item.add_marker(mark)
            yield item

    def repr_failure(self, excinfo):  # type: ignore[override]
        if isinstance(excinfo.value, self.CollectError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseFolder(_CaseCollector, pytest.Directory):
    """A case folder (either folder layout)."""


class CaseFile(_CaseCollector, pytest.File):
    """A task that is one file (a MultiKernelBench reference module): collected as a case folder is."""


class SampleItem(pytest.Item):
    """One (task, sample). The evaluation runs in ``setup``: what only our machinery can cause (an
    :class:`~npukernelbench.infrastructure.InfrastructureError` that persisted through its retry, a
    broken case reference) is then an item *error* naming the cause, never a failure of the kernel;
    ``runtest`` passes or fails the sample on its result."""

    def __init__(self, *, spec: Any, sample: int, **kw: Any):
        super().__init__(**kw)
        self.spec = spec
        self.sample = sample
        self.keywords[marker_name(spec.category)] = True
        self.result: Any = None

    def setup(self) -> None:
        from npukernelbench.evaluate import evaluate
        from npukernelbench.infrastructure import InfrastructureError
        from npukernelbench.module_loader import CaseReferenceError

        state = self.config.stash[STATE]
        worker = state.worker
        if worker.already_finished(self.spec.case_id, self.sample):
            pytest.skip(f"already finished in {state.options.out} (--npukb-resume)")
        reason = state.toolchain.unavailable_reason()
        where = f"{self.spec.case_id} sample {self.sample}"
        if not reason:
            from npukernelbench.layouts import layout_of

            unsupported = layout_of(self.spec).unsupported(state.toolchain.get())
            if unsupported:
                pytest.skip(unsupported)
        error = None
        try:
            if reason:
                raise InfrastructureError(f"toolchain {state.options.toolchain!r} cannot run here: {reason}")
            completion = worker.completion(self.spec, self.sample)
            missing = completion.meta.get("missing")
            if not missing:
                self.result = evaluate(self.spec, completion, state.toolchain.get(), state.options.eval_options(),
                                       worker.baseline)
        except InfrastructureError as exc:
            self.user_properties.append((INFRA_KEY, json.dumps({"task": self.spec.case_id, "sample": self.sample,
                                                                "cause": exc.cause})))
            error = f"{where}: infrastructure failure (not the kernel's fault, not counted): {exc.cause}"
        except CaseReferenceError as exc:
            error = f"{where}: the case's reference failed (a bug in the case, not the kernel): {exc}"
        if error is not None:                    # outside the except: no chained traceback in the report
            pytest.fail(error, pytrace=False)
        if missing:
            pytest.skip(f"{where}: {missing} (not evaluated, not counted)")
        label = completion.meta.get("label") if completion.meta else None
        if label:
            self.result.details["expected_category"] = label

    def runtest(self) -> None:
        result = self.result
        self.user_properties.append((RESULT_KEY, json.dumps(result.to_json())))
        if not result.passed:
            head = f"{result.status.value}"
            if result.error_category:
                head += f" ({result.error_category.value})"
            text = f"{head}: {result.message}"
            diag = result.details.get("diagnostics")
            if diag:
                text += "\n" + diag
            raise SampleFailure(text)

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, SampleFailure):
            return f"{self.spec.case_id} sample {self.sample}: {excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.spec.case_id}[s{self.sample}]"

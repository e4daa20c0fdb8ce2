"""pytest collectors and items: one collector per case folder, one item per (task, sample)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from npukernelbench.session import STATE
from npukernelbench.spec import SpecError, marker_name

RESULT_KEY = "npukb_result"


class SampleFailure(Exception):
    """A sample that did not pass; its message is the short failure report."""


class CaseFolder(pytest.Directory):
    """A case folder (either layout): yields one :class:`SampleItem` per sample."""

    def collect(self):
        from npukernelbench.cases import load_case

        state = self.config.stash[STATE]
        try:
            spec = load_case(Path(self.path))
        except SpecError as exc:
            raise self.CollectError(str(exc)) from None
        shapes = state.options.shapes
        for sample in range(state.options.samples):
            item = SampleItem.from_parent(self, name=f"{spec.case_id}[s{sample}]", spec=spec, sample=sample)
            for mark in (*spec.markers, *(("static", "dynamic") if shapes == "both" else (shapes,)), "npukb"):
                self.config.addinivalue_line("markers", f"{mark}: NPUKernelBench marker")
                item.add_marker(mark)
            yield item

    def repr_failure(self, excinfo):  # type: ignore[override]
        if isinstance(excinfo.value, self.CollectError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class SampleItem(pytest.Item):
    def __init__(self, *, spec: Any, sample: int, **kw: Any):
        super().__init__(**kw)
        self.spec = spec
        self.sample = sample
        self.keywords[marker_name(spec.category)] = True

    def runtest(self) -> None:
        from npukernelbench.evaluate import evaluate

        state = self.config.stash[STATE]
        reason = state.toolchain_unavailable()
        if reason:
            pytest.skip(f"toolchain {state.options.toolchain!r} unavailable: {reason}")
        if self.spec.layout == "npukernelbench":
            from npukernelbench.toolchains.base import HostDescriber

            if not isinstance(state.toolchain(), HostDescriber):
                pytest.skip(f"toolchain {state.options.toolchain!r} cannot describe host code, which the public "
                            "NPUKernelBench layout needs to bind the operator (use ascendc-sim)")
        if state.already_finished(self.spec.case_id, self.sample):
            pytest.skip(f"already finished in {state.options.out} (--npukb-resume)")
        completion = state.completion(self.spec, self.sample)
        if completion.meta and completion.meta.get("missing"):
            pytest.skip("the task ships no expert answer (--model=reference needs answer/0/ or solution/)")
        result = evaluate(self.spec, completion, state.toolchain(), state.options.eval_options(), state.baseline)
        label = completion.meta.get("label") if completion.meta else None
        if label:
            result.details["expected_category"] = label
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


"""The ``reference`` model: every sample is the case's expert solution (a self-check of the install)."""

from __future__ import annotations

from collections.abc import Sequence

from npukernelbench.generators.base import Completion, GenerationRequest, GeneratorOptions, require_task


class ReferenceGenerator:
    name = "reference"

    def __init__(self, model: str = "reference", options: GeneratorOptions | None = None):
        self.options = options or GeneratorOptions()

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        out = []
        for req in requests:
            task = require_task(req, "reference")
            if task.solution is None:
                out.append([Completion(task.case_id, i, text="(this task ships no expert solution)",
                                       meta={"model": "reference", "missing": True})
                            for i in range(req.sampling.n)])
                continue
            out.append([Completion(task.case_id, i, files=dict(task.solution), tokens=0,
                                   meta={"model": "reference"}) for i in range(req.sampling.n)])
        return out

    def close(self) -> None:
        pass

"""Test doubles of the multi-turn repair tests: a replay model that records every conversation it is
asked to answer (``--model=multiturn_helpers:RecordingReplay:FILE``: the requests go to
``FILE.requests.jsonl``), and the g++ test toolchain with an infrastructure failure on demand (a
kernel holding the marker ``INFRA_FAIL`` fails to build in "our machinery")."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from gxx_toolchain import GxxToolchain

from npukernelbench.generators.base import Completion, GenerationRequest
from npukernelbench.generators.hf import HFGenerator
from npukernelbench.generators.replay import ReplayGenerator
from npukernelbench.infrastructure import InfrastructureError


class RecordingReplay(ReplayGenerator):
    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        with Path(str(self.path) + ".requests.jsonl").open("a", encoding="utf-8") as fh:
            for r in requests:
                fh.write(json.dumps({"task": r.id, "turn": r.turn, "sample": r.sample, "n": r.sampling.n,
                                     "messages": [dict(m) for m in r.messages]}) + "\n")
        return super().generate(requests)


class InfraGxx(GxxToolchain):
    def build(self, project):  # noqa: ANN001, ANN201
        if any("INFRA_FAIL" in text for text in project.files.values()):
            raise InfrastructureError("the compiler was killed by SIGKILL (injected by the test)")
        return super().build(project)



class RecordingHF(HFGenerator):
    """``--model=multiturn_helpers:RecordingHF:MODEL_DIR``: the hf backend on a local model, every
    request's messages appended to ``$NPUKB_TEST_REQUESTS`` (a JSONL file)."""

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        with Path(os.environ["NPUKB_TEST_REQUESTS"]).open("a", encoding="utf-8") as fh:
            for r in requests:
                fh.write(json.dumps({"task": r.id, "turn": r.turn, "sample": r.sample,
                                     "messages": [dict(m) for m in r.messages]}) + "\n")
        return super().generate(requests)

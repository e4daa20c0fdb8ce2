"""One replay schema: what ``npukb export-completions`` writes, what ``--model=replay:`` reads and
what docs/generation.md documents are the same keys; a round trip keeps every field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from npukernelbench.export import main as export_main
from npukernelbench.generators.base import Completion, GenerationRequest, SamplingParams
from npukernelbench.generators.replay import SCHEMA_KEYS, ReplayError, ReplayGenerator, read_replay
from npukernelbench.store import RunDir

DOCS = Path(__file__).resolve().parents[2] / "docs" / "generation.md"


def test_docs_table_lists_exactly_the_schema() -> None:
    text = DOCS.read_text()
    section = text[text.index("### Replay files"):]
    table = [ln for ln in section.splitlines() if ln.startswith("| `")]
    assert tuple(re.match(r"\| `(\w+)`", ln).group(1) for ln in table) == SCHEMA_KEYS


def test_export_round_trip_keeps_every_field(tmp_path) -> None:
    run = RunDir(tmp_path / "run")
    run.create(fresh=True)
    run.write_completions([
        Completion("level1/math/a", 0, text="=== op_host/a.cpp ===", tokens=7, meta={"model": "m"}),
        Completion("level1/math/a", 1, files={"op_kernel/a.cpp": "int x;"}, meta={"label": "api_signature"}),
    ])
    out = tmp_path / "replay.jsonl"
    assert export_main([str(run.path), "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(set(row) <= set(SCHEMA_KEYS) for row in rows)
    assert rows[0] == {"task": "level1/math/a", "sample": 0, "completion": "=== op_host/a.cpp ===", "tokens": 7,
                       "meta": {"model": "m"}}
    assert rows[1]["meta"] == {"label": "api_signature"} and rows[1]["files"] == {"op_kernel/a.cpp": "int x;"}
    assert read_replay(out)[("level1/math/a", 1)]["meta"]["label"] == "api_signature"


@pytest.mark.parametrize("line, needle", [
    ('{"task": "t", "completion": "x", "files": {"a": "b"}}', "exactly one of 'completion'"),
    ('{"task": "t", "completion": 3}', "'completion' must be a string"),
    ('{"task": "t", "completion": "x", "meta": []}', "'meta' must be an object"),
])
def test_schema_violations_name_the_line(tmp_path, line, needle) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(ReplayError, match=re.escape(needle)) as caught:
        read_replay(path)
    assert f"{path}:1" in str(caught.value)


def test_missing_sample_is_marked_missing_not_an_empty_answer(tmp_path) -> None:
    from npukernelbench.cases import load_case

    path = tmp_path / "r.jsonl"
    path.write_text('{"task": "level1/math/add_custom", "sample": 0, "completion": "text"}\n')
    spec = load_case(Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom")
    batch = ReplayGenerator(str(path)).generate([GenerationRequest(spec, (), SamplingParams(n=2))])[0]
    assert batch[0].text == "text" and not batch[0].meta.get("missing")
    assert batch[1].text is None and batch[1].files is None
    assert "missing from the replay file" in batch[1].meta["missing"]

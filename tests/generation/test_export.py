"""export-completions: a run's completions.jsonl -> a replay file the replay model reads back."""

from __future__ import annotations

import json

from npukernelbench.export import main
from npukernelbench.generators.base import Completion
from npukernelbench.generators.replay import read_replay
from npukernelbench.store import RunDir


def test_export_round_trip(tmp_path, capsys):
    run = RunDir(tmp_path / "run")
    run.create(fresh=True)
    run.write_completions([
        Completion(task="level1/math/add_custom", sample=1, text="=== op_host/a.cpp ===\n```cpp\nx\n```", tokens=9),
        Completion(task="level1/math/add_custom", sample=0, text="<think>hmm</think> garbage", tokens=4),
        Completion(task="level1/math/other", sample=0, files={"op_kernel/o.cpp": "int x;"}),
    ])
    out = tmp_path / "replay.jsonl"
    assert main([str(run.path), "-o", str(out)]) == 0
    assert "wrote 3 completions" in capsys.readouterr().out
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0] == {"task": "level1/math/add_custom", "sample": 0, "completion": "<think>hmm</think> garbage",
                        "tokens": 4}
    rows = read_replay(out)
    assert rows[("level1/math/add_custom", 1)]["completion"].startswith("=== op_host/a.cpp ===")
    assert rows[("level1/math/other", 0)]["files"] == {"op_kernel/o.cpp": "int x;"}
    assert main([str(run.path)]) == 0 and (run.path / "replay.jsonl").read_text() == out.read_text()


def test_export_errors(tmp_path, capsys):
    assert main([str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main([str(tmp_path)]) == 2
    assert "no completions.jsonl" in capsys.readouterr().err

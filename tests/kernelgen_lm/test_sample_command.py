"""``kernelgen-lm sample`` end to end on real evaluations (ascendc-sim): candidates from a replay file
(the expert solution, a kernel that builds but subtracts, text without code) graded passes / wrong /
unbuilt and paired; an unreachable server; the error-derived SFT round on the same run directory."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from kernelgen_lm.cli import main
from npukernelbench.cases import load_case
from npukernelbench.extract import render_files

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases"
ADD_CUSTOM = CASES / "level1" / "math" / "add_custom"
TASK = "level1/math/add_custom"


def subtracting(files: dict[str, str]) -> dict[str, str]:
    kernel = files["op_kernel/add_custom.cpp"]
    wrong = kernel.replace("Add(zLocal,", "Sub(zLocal,").replace("Add(a, a, b,", "Sub(a, a, b,")
    assert wrong != kernel
    return {**files, "op_kernel/add_custom.cpp": wrong}


@pytest.fixture(scope="module")
def sampled(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sample")
    spec = load_case(ADD_CUSTOM)
    replay = tmp / "replay.jsonl"
    rows = [{"task": TASK, "sample": 0, "completion": "<think>plan</think>\n" + render_files(dict(spec.solution))},
            {"task": TASK, "sample": 1, "files": subtracting(dict(spec.solution))},
            {"task": TASK, "sample": 2, "completion": "I would write a kernel here."}]
    replay.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp / "sample.yaml"
    config.write_text(f"model: replay:{replay.name}\ncases: [{CASES}]\ntasks: [{TASK}]\ninclude_eval_tasks: true\n"
                      "samples: 3\nout: out\nseeds: 1\n")
    assert main(["sample", str(config)]) == 0
    return tmp


def test_candidates_are_graded_and_paired(sampled, capsys):
    import datasets

    out = sampled / "out"
    results = {r["sample"]: r["status"] for r in map(json.loads, (out / "run" / "results.jsonl").open())}
    assert results == {0: "passed", 1: "wrong", 2: "parse_error"}
    pairs = datasets.load_from_disk(str(out / "pairs"))
    assert len(pairs) == 2
    assert sorted(zip(pairs["chosen_class"], pairs["rejected_class"], strict=True)) == \
        [("passes", "unbuilt"), ("passes", "wrong")]
    assert all(p[0]["role"] == "system" and TASK.split("/")[-1] in p[1]["content"] for p in pairs["prompt"])
    assert "Sub(zLocal" in pairs.filter(lambda r: r["rejected_class"] == "wrong")["rejected"][0][0]["content"]
    stats = json.loads((out / "pairs_stats.json").read_text())
    assert stats["classes"] == {"passes": 1, "wrong": 1, "unbuilt": 1} and stats["no_outcome"] == 0
    assert stats["cr"] == pytest.approx(2 / 3) and stats["er"] == pytest.approx(1 / 3)


def test_policy_passes_over_wrong_only(sampled):
    """Mining again from the same run directory with another policy: no new evaluation."""
    from kernelgen_lm.pairs import pairs_from_run

    pairs, stats = pairs_from_run(sampled / "out" / "run", [load_case(ADD_CUSTOM)], policy="passes>wrong")
    assert [(p.chosen.sample, p.rejected.sample) for p in pairs] == [(0, 1)]


def test_evaluation_tasks_are_left_out_by_default(tmp_path, capsys):
    config = tmp_path / "s.yaml"
    config.write_text(f"model: reference\ncases: [{ADD_CUSTOM}]\neval_tasks: ['{TASK}']\nout: o\n")
    assert main(["sample", str(config)]) == 2
    assert "every selected task (1) is in the evaluation split" in capsys.readouterr().err


def test_unreachable_server_is_a_clear_error(tmp_path, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]                     # closed again: nothing listens there
    config = tmp_path / "s.yaml"
    config.write_text(f"model: reference\ncases: [{ADD_CUSTOM}]\ninclude_eval_tasks: true\nout: o\n")
    assert main(["sample", str(config), "--model", f"http://127.0.0.1:{port}/v1#m"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kernelgen-lm sample: error: model http://127.0.0.1")
    assert "unreachable" in err[0] and "Is an OpenAI-compatible server running there?" in err[0]
    assert not (tmp_path / "o" / "run").exists()                    # failed before any work


def test_unknown_key_and_missing_config(tmp_path, capsys):
    config = tmp_path / "s.yaml"
    config.write_text(f"model: reference\ncases: [{ADD_CUSTOM}]\nout: o\nsampels: 3\n")
    assert main(["sample", str(config)]) == 2
    assert "kernelgen-lm sample: error: s.yaml: sampels: unknown key" in capsys.readouterr().err
    assert main(["sft", str(tmp_path / "nothing.yaml")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_error_round_returns_as_sft_data(sampled, tmp_path, capsys):
    """The run's built-but-wrong kernel goes through ascend_cot's error stage (a replay teacher that
    finds the subtraction and fixes it); the verified fix comes back as an SFT conversation."""
    from kernelgen_lm.datasets_io import load_messages

    spec = load_case(ADD_CUSTOM)
    fix = ("<think>The failure is a value mismatch: the kernel computes x - y where the task asks for x + y. "
           "Sub must be Add in both compute paths.</think>\n"
           + render_files(dict(spec.solution)))     # the whole project (the extractor needs a host source)
    teacher = tmp_path / "teacher.jsonl"
    teacher.write_text(json.dumps({"task": f"errors.kernel:run:run/{TASK}#1", "completion": fix}) + "\n")
    assert main(["errors", str(sampled / "out" / "run"), "--teacher", f"replay:{teacher}", "--cases", str(CASES),
                 "--out", str(tmp_path / "round")]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["conversations"] == 1
    data = load_messages([tmp_path / "round"])                     # an ascend-cot output folder is SFT data
    assert len(data) == 1
    turns = data[0]["messages"]
    assert turns[-1]["role"] == "assistant" and turns[-1]["content"].startswith("<think>\nThe failure")
    assert "Add(zLocal" in turns[-1]["content"] and "Sub(zLocal" in turns[-2]["content"]


def test_sampling_from_a_server_with_one_class_only(served_model, tmp_path, capsys):
    """A live OpenAI-compatible server (npukb serve on the tiny model): its noise never parses, so the
    task has one class (unbuilt) and gives no pair; the stats say so and the pairs dataset is empty."""
    config = tmp_path / "s.yaml"
    config.write_text(f"model: {served_model.url}\ncases: [{ADD_CUSTOM}]\ninclude_eval_tasks: true\nsamples: 2\n"
                      "max_tokens: 12\ntemperature: 1.0\nout: o\n")
    assert main(["sample", str(config)]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["pairs"] == 0 and printed["classes"] == {"unbuilt": 2}
    stats = json.loads((tmp_path / "o" / "pairs_stats.json").read_text())
    assert stats["one_class_tasks"] == [TASK] and stats["cr"] == 0.0
    header = json.loads((tmp_path / "o" / "run" / "run.json").read_text())
    assert header["model"] == served_model.url and header["temperature"] == 1.0

"""The tiny offline example end to end: five stages, verified samples, every output file, and the
drops the inputs call for (verification, decontamination, tiling mismatch, malformed teacher output)."""

from __future__ import annotations

import json
from pathlib import Path

from ascend_cot.stats import read_stats, render


def test_outputs_and_columns(tiny_build):
    import datasets

    out = tiny_build.out
    for name in ("data.jsonl", "drops.jsonl", "stats.json", "README.md", "config.json"):
        assert (out / name).is_file(), name
    data = datasets.load_from_disk(str(out / "dataset"))
    assert set(data.column_names) >= {"messages", "source", "origin", "task", "verified", "provenance"}
    assert len(data) == tiny_build.samples == sum(1 for _ in (out / "data.jsonl").open())
    stats = read_stats(out)
    for row in data:
        assistant = row["messages"][-1]
        assert assistant["role"] == "assistant" and assistant["content"].startswith("<think>")
        assert "</think>" in assistant["content"]
        assert row["verified"] in ("passed", "built", "failed", "not_applicable")
        assert row["provenance"]["config_hash"] == stats["config_hash"]
        if row["source"] != "general":
            assert row["provenance"]["teacher"].startswith("replay:") and len(row["provenance"]["prompt_hash"]) == 64
    assert "Ascend-CoT corpus" in (out / "README.md").read_text()


def test_stats_show_four_sources_and_the_drops_the_inputs_call_for(tiny_build):
    stats = tiny_build.stats
    assert len(stats["kept_by_source"]) >= 4, stats["kept_by_source"]
    drops = stats["drops"]
    for reason in ("verification_failed", "contaminated", "tiling_mismatch", "malformed_teacher_output",
                   "duplicate_exact", "language"):
        assert drops.get(reason, 0) > 0, (reason, drops)
    assert stats["decontamination"]["held_out_cases"] > 100
    assert stats["tokens"]["all"]["count"] == stats["total"]
    assert "drops by reason" in render(stats)


def test_code_bearing_samples_are_verified_by_execution(tiny_build):
    rows = [json.loads(line) for line in (tiny_build.out / "data.jsonl").open()]
    by_source = {}
    for row in rows:
        by_source.setdefault(row["source"], set()).add(row["verified"])
    assert by_source["project"] == {"passed"}
    assert by_source["api_debug"] == {"passed"} and by_source["kernel_debug"] == {"passed"}
    assert "passed" in by_source["kernel"]
    # the failing fix is in drops.jsonl with the teacher's raw answer: nothing is lost
    drops = [json.loads(line) for line in (tiny_build.out / "drops.jsonl").open()]
    failed = [d for d in drops if d["reason"] == "verification_failed"]
    assert failed and all("=== op_kernel/add_custom.cpp ===" in d["text"] for d in failed)
    mismatch = next(d for d in drops if d["reason"] == "tiling_mismatch")
    # the truth comes from the simulated 910B3's real tiling function (40 vector cores)
    assert "bigCoreNum" in mismatch["detail"] and mismatch["extra"]["truth"]["block_dim"] == 40


def test_project_sample_carries_the_simulators_tiling_truth(tiny_build):
    rows = [json.loads(line) for line in (tiny_build.out / "data.jsonl").open()]
    project = next(r for r in rows if r["source"] == "project")
    assert project["messages"][0]["role"] == "system"           # the benchmark's project-level prompt
    assert "## Hardware" in project["messages"][1]["content"]
    answer = project["messages"][-1]["content"]
    assert '"tileLength": 16128' in answer and "=== op_host/add_custom.cpp ===" in answer


def test_stats_cli(tiny_build, capsys):
    from ascend_cot.cli import main

    assert main(["stats", str(tiny_build.out)]) == 0
    assert "kernel_debug" in capsys.readouterr().out
    assert main(["stats", str(tiny_build.out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == tiny_build.samples


def test_mixing_weights_are_one_flag_per_ablation(tiny_build, tmp_path):
    """``--set mix.docs=0`` rebuilds from the finished stages without the docs samples."""
    import shutil

    from ascend_cot.build import build

    tiny = Path(__file__).resolve().parents[2] / "examples" / "ascend_cot" / "tiny.yaml"
    out = tmp_path / "ablation"
    shutil.copytree(tiny_build.out / "work", out / "work")
    shutil.copytree(tiny_build.out / "cache", out / "cache")
    outcome = build(tiny, out, progress=False, overrides=["mix.docs=0", "mix.general=2"], log=lambda m: None)
    assert "docs" not in outcome.stats["kept_by_source"]
    assert outcome.stats["drops"]["mix_excluded"] == tiny_build.stats["kept_by_source"]["docs"]
    assert outcome.stats["kept_by_source"]["general"] == 2 * tiny_build.stats["kept_by_source"]["general"]
    assert all(s["resumed"] for s in outcome.stats["stages"].values())

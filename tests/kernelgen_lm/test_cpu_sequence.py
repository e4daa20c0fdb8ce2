"""The README's CPU training sequence: what to do when sampling finds no pair (sample's last line, dpo's
one-line error), the tiny model's tokenizer trained on expert data (``--text``), the generator's CPU
thread setting, and the benchmark script running exactly the README's commands."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from kernelgen_lm.cli import main
from kernelgen_lm.pairs import no_pairs_advice

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("classes, policy, needle", [
    ({"passes": 12}, "passes>wrong+unbuilt", "every candidate passed (12): sample hotter or more (--temperature 1.5"),
    ({"unbuilt": 5, "wrong": 1}, "passes>wrong+unbuilt", "no candidate passed (6): train the SFT model longer"),
    ({}, "passes>wrong+unbuilt", "no candidate was graded"),
    ({"passes": 2, "unbuilt": 2}, "passes>wrong", "the policy passes>wrong needs one"),
    ({"passes": 2, "wrong": 2}, "passes>unbuilt", "the policy passes>unbuilt needs one"),
    ({"passes": 2, "unbuilt": 2}, "passes>wrong+unbuilt", "each task's candidates were all of one class"),
    # counts and policy as a pairs_stats.json from before the rename spells them (the paper's colours)
    ({"green": 2, "purple": 2}, "green>orange", "the policy passes>wrong needs one"),
], ids=["all_pass", "none_pass", "nothing", "no_wrong", "no_unbuilt", "one_class_per_task", "colour_names"])
def test_no_pairs_advice_names_the_remedy(classes, policy, needle):
    advice = no_pairs_advice(classes, policy)
    assert needle in advice and "\n" not in advice


def _empty_pairs(folder: Path, stats: dict | None) -> Path:
    from kernelgen_lm.pairs import write_pairs

    pairs = write_pairs(folder / "pairs", [])
    if stats is not None:
        (folder / "pairs_stats.json").write_text(json.dumps(stats))
    return pairs


@pytest.mark.parametrize("stats, needle", [
    ({"classes": {"passes": 8}, "policy": "passes>wrong+unbuilt"}, "every candidate passed (8): sample hotter"),
    ({"classes": {"unbuilt": 4}, "policy": "passes>wrong+unbuilt"}, "no candidate passed (4): train the SFT model"),
    # a pairs_stats.json from before the rename (the paper's colour names)
    ({"classes": {"green": 2, "orange": 2}, "policy": "green>purple"}, "the policy passes>unbuilt needs one"),
    (None, "sample again with kernelgen-lm sample, hotter or with more samples"),
], ids=["all_pass", "all_unbuilt", "colour_names", "no_stats"])
def test_dpo_without_pairs_says_what_to_do(tiny_model, tmp_path, capsys, stats, needle):
    pairs = _empty_pairs(tmp_path / "sampled", stats)
    config = tmp_path / "dpo.yaml"
    config.write_text(f"model: {tiny_model}\npairs: [{pairs}]\noutput_dir: {tmp_path / 'dpo'}\ndevice: cpu\n")
    capsys.readouterr()                                          # the datasets library's progress bars
    assert main(["dpo", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kernelgen-lm dpo: error: ") and "no preference pairs: " in err[0]
    assert needle in err[0]
    assert not (tmp_path / "dpo" / "model.safetensors").exists()


def test_sample_with_one_class_prints_the_remedy(tmp_path, capsys):
    """The reference solution for every sample: all pass, no pair; the last stderr line says to sample
    hotter or more (real evaluations through ascendc-sim)."""
    config = tmp_path / "s.yaml"
    config.write_text(f"model: reference\ncases: [{ROOT / 'benchmark_cases' / 'level1' / 'math' / 'add_custom'}]\n"
                      "include_eval_tasks: true\nsamples: 2\nseeds: 1\nout: o\n")
    assert main(["sample", str(config)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out.strip().splitlines()[-1])["pairs"] == 0
    lines = captured.err.strip().splitlines()
    assert lines[-1].startswith("kernelgen-lm sample: no pairs: every candidate passed (2): sample hotter")
    assert any(line.startswith("[1/2] level1/math/add_custom[s0] passed") for line in lines)
    assert "[2/2] level1/math/add_custom[s1] passed" in lines


def test_counted_log_numbers_sample_lines_with_a_time_estimate():
    from kernelgen_lm.eval_progress import CountedLog

    seen: list[str] = []
    times = iter([10.0, 12.0, 14.0, 16.0])
    counted = CountedLog(seen.append, total=4, clock_fn=lambda: next(times))
    for line in ("t[s0] passed", "loaded a model", "t[s1] wrong", "t[s2] build_error", "t[s3] passed"):
        counted(line)
    assert seen == ["[1/4] t[s0] passed", "loaded a model", "[2/4] t[s1] wrong (0:02 elapsed, about 0:04 left)",
                    "[3/4] t[s2] build_error (0:04 elapsed, about 0:02 left)", "[4/4] t[s3] passed"]
    resumed: list[str] = []
    CountedLog(resumed.append, total=4, done=3)("t[s3] passed")
    assert resumed == ["[4/4] t[s3] passed"]


def test_tiny_model_tokenizer_trained_on_expert_data(tmp_path, capsys):
    """``--text OUT.jsonl`` with merges across words: the expert solution becomes far fewer tokens."""
    from transformers import AutoTokenizer

    from kernelgen_lm.tiny_model import main as tiny_main

    assert main(["expert-data", str(ROOT / "benchmark_cases"), "--tasks", "level1/math/add_custom",
                 "--out", str(tmp_path / "data")]) == 0
    rows = [json.loads(line) for line in (tmp_path / "data.jsonl").read_text().splitlines()]
    answer = rows[0]["messages"][-1]["content"]
    assert tiny_main([str(tmp_path / "plain")]) == 0
    assert tiny_main([str(tmp_path / "trained"), "--text", str(tmp_path / "data.jsonl"), "--vocab-size", "2048",
                      "--max-token-chars", "16"]) == 0
    plain = len(AutoTokenizer.from_pretrained(tmp_path / "plain")(answer).input_ids)
    trained = len(AutoTokenizer.from_pretrained(tmp_path / "trained")(answer).input_ids)
    assert trained * 3 < plain, (trained, plain)
    capsys.readouterr()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "no messages"}\n')
    assert tiny_main([str(tmp_path / "x"), "--text", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"tiny_model: error: {bad}:1: a row without 'messages'"]
    assert not (tmp_path / "x").exists()


def test_hf_generator_cpu_threads(tiny_model):
    import torch

    from npukernelbench.generators.base import GeneratorOptions
    from npukernelbench.generators.hf import HFGenerator
    from npukernelbench.options import RunOptions

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        gen = HFGenerator(str(tiny_model), GeneratorOptions(progress=False, device="cpu", cpu_threads=1))
        gen.load()
        assert torch.get_num_threads() == 1
        torch.set_num_threads(2)
        HFGenerator(str(tiny_model), GeneratorOptions(progress=False, device="cpu")).load()
        assert torch.get_num_threads() == 2                      # 0: torch's own setting stays
    finally:
        torch.set_num_threads(before)
    assert RunOptions(cpu_threads=1).generator_options().cpu_threads == 1
    with pytest.raises(ValueError, match="--cpu-threads must be >= 0, got -1"):
        RunOptions(cpu_threads=-1)


def test_evaluate_with_negative_cpu_threads_is_one_line(tmp_path, capsys):
    from npukernelbench.cli import main as npukb_main

    case = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"
    assert npukb_main(["evaluate", str(case), "--cpu-threads", "-1", "--npukb-out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.strip().splitlines() == ["npukb evaluate: --cpu-threads must be >= 0, got -1"]
    assert not (tmp_path / "o").exists()


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## KernelGen-LM: train, evaluate, improve"):]
    block = section[section.index("```bash\n") + 8:section.index("```", section.index("```bash\n") + 8)]
    lines, current = [], ""
    for raw in block.splitlines():
        line = re.sub(r"\s+#.*$", "", raw).strip()
        if not line:
            continue
        current += line.rstrip("\\").strip() + " "
        if not line.endswith("\\"):
            lines.append(" ".join(current.split()))
            current = ""
    return lines


def test_the_script_runs_the_readme_commands():
    spec = importlib.util.spec_from_file_location("cpu_sequence", ROOT / "benchmarks" / "cpu_sequence.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["cpu_sequence"] = module
    spec.loader.exec_module(module)
    assert [command for _, command in module.COMMANDS] == _readme_commands()
    sample_yaml = (ROOT / "examples" / "kernelgen_lm" / "cpu" / "sample.yaml").read_text()
    assert "cpu_threads: 1" in sample_yaml


def test_busy_machine_hint(monkeypatch):
    """Several torch threads on busy cores: one line suggesting --cpu-threads 1; none when idle or one thread."""
    from npukernelbench.generators import hf

    monkeypatch.setattr(hf.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(hf.os, "getloadavg", lambda: (9.5, 8.0, 7.0))
    hint = hf.busy_cpu_hint(2)
    assert hint is not None and "load 9.5 on 2 cores" in hint and "--cpu-threads 1" in hint and "\n" not in hint
    assert hf.busy_cpu_hint(1) is None
    monkeypatch.setattr(hf.os, "getloadavg", lambda: (0.5, 0.4, 0.3))
    assert hf.busy_cpu_hint(2) is None

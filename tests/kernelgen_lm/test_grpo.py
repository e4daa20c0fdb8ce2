"""``kernelgen-lm grpo`` on the tiny model (CPU): a short run from a YAML file with command-line
overrides (full and LoRA), None rewards left out of the advantage by trl, bad configs."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from kernelgen_lm.config import ConfigError, GRPOSettings, load_settings

ADD_CUSTOM = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"
FAST = {"cases": [str(ADD_CUSTOM)], "include_eval_tasks": True, "device": "cpu", "max_steps": 1,
        "num_generations": 2, "global_batch_size": 2, "per_device_batch_size": 2, "max_completion_length": 8,
        "jobs": 1, "save_steps": 10, "cpu_threads": 1, "report_to": ["none"]}


def write_config(path: Path, **settings) -> Path:
    import yaml

    path.write_text(yaml.safe_dump(settings))
    return path


def train_capturing_advantages(trainer, monkeypatch) -> list:
    """Train ``trainer`` and return the advantages of each generation batch, as the loss will use them."""
    advantages = []
    original = trainer._generate_and_score_completions

    def capture(inputs):
        batch = original(inputs)
        advantages.append(batch["advantages"].detach().clone())
        return batch

    monkeypatch.setattr(trainer, "_generate_and_score_completions", capture)
    trainer.train()
    return advantages


def test_grpo_command_trains_and_writes_the_output(tiny_model, tmp_path, capsys):
    """The command as a user types it: the benchmark prompt of add_custom, two completions of noise
    scored by the pipeline (parse errors: -1), one step, the model saved, a final JSON line."""
    from kernelgen_lm.cli import main

    out = tmp_path / "grpo"
    config = write_config(tmp_path / "grpo.yaml", model=str(tiny_model), output_dir=str(out),
                          **{**FAST, "max_steps": 3})
    assert main(["grpo", str(config), "--max_steps", "1", "--reward.parse_error=-2"]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out.strip().splitlines()[-1])
    assert printed["output_dir"] == str(out)
    assert printed["evaluations"] == 2 and printed["verdicts"] == {"parse_error": 2}
    assert printed["reward_first"] == -2.0 and printed["no_outcome"] == 0
    assert "batch 1: 2 completions evaluated" in captured.err
    assert (out / "model.safetensors").is_file() and (out / "tokenizer.json").is_file()
    record = json.loads((out / "kernelgen_lm.json").read_text())
    assert record["kind"] == "grpo" and record["tasks"] == ["level1/math/add_custom"]
    assert record["settings"]["learning_rate"] == 1e-6 and record["settings"]["max_steps"] == 1


def test_lora_preset_saves_the_adapter(tiny_model, tmp_path):
    from kernelgen_lm.grpo import run_grpo

    settings = load_settings(GRPOSettings, data={"model": str(tiny_model), "output_dir": str(tmp_path / "lora"),
                                                 "preset": "lora", "lora": {"r": 4, "alpha": 8}, **FAST})
    assert settings.learning_rate == 1e-5
    result = run_grpo(settings, log=lambda line: None)
    assert result.metrics["evaluations"] == 2
    adapter = json.loads((tmp_path / "lora" / "adapter_config.json").read_text())
    assert adapter["r"] == 4 and not (tmp_path / "lora" / "model.safetensors").exists()


def test_none_rewards_are_left_out_of_the_advantage(tiny_model, tmp_path, monkeypatch):
    """An infrastructure failure's None reward: trl leaves it out of its group's mean and standard
    deviation and gives it a zero advantage (a 0 reward would lower the baseline and get -mean/std)."""
    import torch

    from kernelgen_lm import rewards
    from kernelgen_lm.grpo import build_grpo_trainer
    from npukernelbench.result import SampleResult, Status

    given = [None, 1.0, -1.0, 0.25]
    statuses = {1.0: Status.PASSED, -1.0: Status.PARSE_ERROR, 0.25: Status.WRONG}
    seen_tasks = []

    def fake_scores(items, **_):
        seen_tasks.extend(spec.case_id for spec, _ in items)
        return [rewards.Scored(None, "infrastructure failure (not the kernel's fault): injected") if r is None
                else rewards.Scored(r, SampleResult(spec.case_id, 1, "math", i, statuses[r]))
                for i, ((spec, _), r) in enumerate(zip(items, given, strict=True))]

    monkeypatch.setattr(rewards, "score_completions", fake_scores)
    settings = load_settings(GRPOSettings, data={"model": str(tiny_model), "output_dir": str(tmp_path / "o"),
                                                 **FAST, "num_generations": 4, "global_batch_size": 4,
                                                 "per_device_batch_size": 4})
    trainer, reward, _ = build_grpo_trainer(settings, log=lambda line: None)
    advantages = train_capturing_advantages(trainer, monkeypatch)
    assert seen_tasks == ["level1/math/add_custom"] * 4
    scored = torch.tensor(given[1:])
    expected = (scored - scored.mean()) / (scored.std() + 1e-4)
    assert advantages[0][0].item() == 0.0
    assert torch.allclose(advantages[0][1:], expected, atol=1e-4)
    assert reward.verdicts["no_outcome"] == 1
    logged = next(h for h in trainer.state.log_history if "execution/no_outcome" in h)
    assert logged["execution/no_outcome"] == 0.25 and logged["execution/passed"] == 0.25
    assert logged["execution/built"] == 0.5                           # passed and wrong built


def test_negative_advantages_are_scaled(tiny_model, tmp_path, monkeypatch):
    """negative_advantage_scale 0.25: the group's below-average completions keep a quarter of their
    advantage, the better-than-average ones all of theirs (a test that fails on plain GRPO)."""
    import torch

    from kernelgen_lm import rewards
    from kernelgen_lm.grpo import build_grpo_trainer
    from npukernelbench.result import SampleResult, Status

    given = [1.0, -1.0, 0.25, -0.5]
    statuses = {1.0: Status.PASSED, -1.0: Status.PARSE_ERROR, 0.25: Status.WRONG, -0.5: Status.BUILD_ERROR}
    monkeypatch.setattr(rewards, "score_completions", lambda items, **_: [
        rewards.Scored(r, SampleResult(spec.case_id, 1, "math", i, statuses[r]))
        for i, ((spec, _), r) in enumerate(zip(items, given, strict=True))])
    settings = load_settings(GRPOSettings, data={"model": str(tiny_model), "output_dir": str(tmp_path / "o"),
                                                 **FAST, "num_generations": 4, "global_batch_size": 4,
                                                 "per_device_batch_size": 4, "negative_advantage_scale": 0.25})
    trainer, _, _ = build_grpo_trainer(settings, log=lambda line: None)
    advantages = train_capturing_advantages(trainer, monkeypatch)
    scored = torch.tensor(given)
    plain = (scored - scored.mean()) / (scored.std() + 1e-4)
    assert (plain < 0).sum() == 2 and (plain > 0).sum() == 2
    assert torch.allclose(advantages[0], torch.where(plain < 0, plain * 0.25, plain), atol=1e-4)


@pytest.mark.parametrize(("changes", "message"), [
    ({"cases": []}, "cases: required"),
    ({"cases": ["no/such/cases"]}, r"cases\[0\]: \S*no/such/cases does not exist"),
    ({"num_generations": 1}, "num_generations: at least 2"),
    ({"num_generations": 3}, "global_batch_size: 2 is not a multiple of num_generations .3."),
    ({"reward": {"passed": "lots"}}, "reward.passed: expected a number"),
    ({"reward": {"speedup_cap": -1}}, "reward: speedup_weight and speedup_cap must be >= 0"),
    ({"rewards": {}}, "rewards"),
    ({"shapes": "some"}, "shapes: expected static, dynamic or both"),
    ({"negative_advantage_scale": 1.5}, r"negative_advantage_scale: expected a number in \[0, 1\], got 1.5"),
    ({"trainer": {"no_such_argument": 1}}, "trainer.no_such_argument: not an argument of trl's GRPOConfig"),
    ({"engine": {"gpu_memory_utilization": 0.5}}, "engine: vLLM settings given but use_vllm is false"),
    ({"tasks": ["level9/*"]}, "task pattern.s. level9/. match no case id"),
    ({"reward_backend": "spark"}, "reward_backend: expected local or ray, got 'spark'"),
    ({"ray_address": "auto"}, "ray_address: set, but reward_backend is local"),
    ({"reward_backend": "ray", "ray_timeout": 0}, "ray_timeout: expected a number of seconds > 0"),
])
def test_bad_configs_are_one_line_exit_2(tiny_model, tmp_path, capsys, changes, message):
    from kernelgen_lm.cli import main

    config = write_config(tmp_path / "bad.yaml", model=str(tiny_model), output_dir=str(tmp_path / "o"),
                          **{**FAST, **changes})
    assert main(["grpo", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("kernelgen-lm grpo: error: "), err
    import re

    assert re.search(message, err), err
    assert not (tmp_path / "o" / "model.safetensors").exists()


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vLLM is installed here")
def test_use_vllm_without_vllm_is_a_config_error(tiny_model, tmp_path):
    from kernelgen_lm.grpo import grpo_arguments

    settings = load_settings(GRPOSettings, data={"model": str(tiny_model), "output_dir": str(tmp_path / "o"),
                                                 **FAST, "use_vllm": True})
    with pytest.raises(ConfigError, match="use_vllm: vLLM is not installed here"):
        grpo_arguments(settings, log=lambda line: None)


def test_ray_backend_without_ray_is_a_config_error(tiny_model, tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(ConfigError, match=r"reward_backend: ray: Ray is not installed \(pip install -e .\[ray\]\)"):
        load_settings(GRPOSettings, data={"model": str(tiny_model), "output_dir": str(tmp_path / "o"), **FAST,
                                          "reward_backend": "ray"})


def test_reward_function_reads_the_task_of_each_completion():
    from kernelgen_lm.grpo import ExecutionReward, completion_text
    from kernelgen_lm.rewards import RewardShaping
    from npukernelbench.cases import load_case

    assert completion_text("plain") == "plain"
    assert completion_text([{"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}]) == "ab"
    reward = ExecutionReward({"level1/math/add_custom": load_case(ADD_CUSTOM)}, RewardShaping(parse_error=-4),
                             log=lambda line: None)
    assert reward([[]], [[{"role": "assistant", "content": "no code"}]], task=["level1/math/add_custom"]) == [-4.0]
    with pytest.raises(ValueError, match="no 'task' column"):
        reward([[]], ["no code"])
    with pytest.raises(ValueError, match="'level1/other' is not one of the training tasks"):
        reward([[]], ["no code"], task=["level1/other"])

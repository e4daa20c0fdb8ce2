"""SFT and DPO on the tiny model (CPU): the full and LoRA presets, checkpoints and resume, bad data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelgen_lm.config import ConfigError, DPOSettings, SFTSettings, load_settings
from kernelgen_lm.datasets_io import DataError

FAST = {"device": "cpu", "max_steps": 2, "global_batch_size": 2, "per_device_batch_size": 2, "max_length": 256,
        "logging_steps": 1, "save_steps": 1, "save_total_limit": 3, "report_to": ["none"], "cpu_threads": 1}


def sft_settings(tiny_model: Path, data: Path, out: Path, **changes) -> SFTSettings:
    return load_settings(SFTSettings, data={"model": str(tiny_model), "dataset": [str(data)], "output_dir": str(out),
                                            **FAST, **changes})


def test_full_preset_trains_saves_and_resumes(tiny_model, chat_data, tmp_path):
    from kernelgen_lm.sft import run_sft

    out = tmp_path / "full"
    settings = sft_settings(tiny_model, chat_data, out, preset="full", packing=True)
    assert settings.learning_rate == 1.25e-6 and settings.weight_decay == 0.1
    result = run_sft(settings, log=lambda line: None)
    assert (out / "model.safetensors").is_file() and (out / "tokenizer.json").is_file()
    losses = [h["loss"] for h in result.log_history if "loss" in h]
    assert len(losses) == 2 and all(loss > 0 for loss in losses)
    record = json.loads((out / "kernelgen_lm.json").read_text())
    assert record["kind"] == "sft" and record["settings"]["preset"] == "full"
    assert record["settings"]["learning_rate"] == 1.25e-6
    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-1", "checkpoint-2"]

    # resume: the same command with more steps continues from the newest checkpoint
    again = run_sft(sft_settings(tiny_model, chat_data, out, preset="full", packing=True, max_steps=4, resume="last"),
                    log=lambda line: None)
    assert again.resumed_from == str(out / "checkpoint-2")
    assert [h["step"] for h in again.log_history if "loss" in h] == [1, 2, 3, 4]   # 1-2 restored, 3-4 trained
    assert json.loads((out / "checkpoint-4" / "trainer_state.json").read_text())["global_step"] == 4
    with pytest.raises(ConfigError, match="not a checkpoint folder"):
        run_sft(sft_settings(tiny_model, chat_data, out, resume=str(tmp_path)), log=lambda line: None)


def test_lora_preset_saves_an_adapter_that_the_benchmark_loads(tiny_model, chat_data, tmp_path):
    from kernelgen_lm.sft import run_sft
    from npukernelbench.generators import get_generator
    from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams

    settings = sft_settings(tiny_model, chat_data, tmp_path / "lora", preset="lora", lora={"r": 4, "alpha": 8},
                            learning_rate=0.05)
    assert load_settings(SFTSettings, data={"model": "m", "dataset": [str(chat_data)], "output_dir": "o",
                                            "preset": "lora"}).learning_rate == 1.25e-5
    run_sft(settings, log=lambda line: None)
    adapter = json.loads((tmp_path / "lora" / "adapter_config.json").read_text())
    assert adapter["r"] == 4 and adapter["lora_alpha"] == 8
    assert not (tmp_path / "lora" / "model.safetensors").exists()      # the adapter only
    generator = get_generator(f"hf:{tiny_model}", GeneratorOptions(lora=str(tmp_path / "lora"), progress=False))
    request = GenerationRequest(None, ({"role": "user", "content": "hi"},),
                                SamplingParams(n=1, temperature=0, max_tokens=4), key="k")
    assert len(generator.generate([request])[0]) == 1


def test_dataset_without_messages_is_a_clear_error(tiny_model, tmp_path):
    from kernelgen_lm.sft import run_sft

    data = tmp_path / "plain.jsonl"
    data.write_text('{"prompt": "a", "completion": "b"}\n')
    with pytest.raises(DataError, match=r"plain.jsonl: no 'messages' column \(found: prompt, completion\)"):
        run_sft(sft_settings(tiny_model, data, tmp_path / "o"), log=lambda line: None)
    data.write_text('{"messages": [{"role": "user", "content": "only a question"}]}\n')
    with pytest.raises(DataError, match="row 0: no assistant turn"):
        run_sft(sft_settings(tiny_model, data, tmp_path / "o"), log=lambda line: None)
    data.write_text("not json\n")
    with pytest.raises(DataError, match="cannot be read as a dataset"):
        run_sft(sft_settings(tiny_model, data, tmp_path / "o"), log=lambda line: None)


def test_template_without_generation_markers(tiny_model, chat_data, tmp_path):
    from kernelgen_lm.sft import run_sft

    plain = tmp_path / "plain.jinja"
    plain.write_text("{% for m in messages %}{{ m['content'] }}{% endfor %}")
    with pytest.raises(ConfigError, match=r"no \{% generation %\} markers"):
        run_sft(sft_settings(tiny_model, chat_data, tmp_path / "o", chat_template=str(plain)), log=lambda line: None)


def test_dpo_on_pairs(tiny_model, tmp_path):
    from kernelgen_lm.dpo import run_dpo

    rows = [{"prompt": [{"role": "user", "content": f"Write kernel {i}"}],
             "chosen": [{"role": "assistant", "content": f"<think>ok</think>good kernel {i}"}],
             "rejected": [{"role": "assistant", "content": f"<think>hm</think>broken {i} {{"}],
             "chosen_class": "green", "rejected_class": "purple", "task": "t"} for i in range(4)]
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    settings = load_settings(DPOSettings, data={"model": str(tiny_model), "pairs": [str(pairs)],
                                                "output_dir": str(tmp_path / "dpo"), **FAST, "learning_rate": 5e-3,
                                                "max_steps": 4, "save_steps": 10})
    assert settings.beta == 0.1
    result = run_dpo(settings, log=lambda line: None)
    assert 0.0 <= result.metrics["reward_accuracy"] <= 1.0
    assert result.metrics["reward_accuracy"] > 0.5           # four steps at a high rate separate four easy pairs
    assert (tmp_path / "dpo" / "model.safetensors").is_file()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prompt": "x", "chosen": "y"}\n')
    with pytest.raises(DataError, match="missing column.s. rejected"):
        run_dpo(load_settings(DPOSettings, data={"model": str(tiny_model), "pairs": [str(bad)],
                                                 "output_dir": str(tmp_path / "d2"), **FAST}), log=lambda line: None)

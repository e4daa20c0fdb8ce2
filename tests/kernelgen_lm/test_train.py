"""SFT and DPO on the tiny model (CPU): the full and LoRA presets, checkpoints and resume, bad data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelgen_lm.config import ConfigError, DPOSettings, SFTSettings, load_settings
from kernelgen_lm.datasets_io import DataError

ADD_CUSTOM = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"
FAST = {"device": "cpu", "max_steps": 2, "global_batch_size": 2, "per_device_batch_size": 2, "max_length": 256,
        "logging_steps": 1, "save_steps": 1, "save_total_limit": 3, "report_to": ["none"], "cpu_threads": 1}


def sft_settings(tiny_model: Path, data: Path, out: Path, **changes) -> SFTSettings:
    return load_settings(SFTSettings, data={"model": str(tiny_model), "dataset": [str(data)], "output_dir": str(out),
                                            **FAST, **changes})


def test_full_preset_trains_saves_and_resumes(tiny_model, chat_data, tmp_path, capsys):
    from kernelgen_lm.cli import main
    from kernelgen_lm.sft import run_sft

    out = tmp_path / "full"
    config = tmp_path / "sft.yaml"
    config.write_text(f"model: {tiny_model}\ndataset: [{chat_data}]\noutput_dir: {out}\npreset: full\n"
                      "packing: true\ndevice: cpu\nmax_length: 256\nreport_to: [none]\ncpu_threads: 1\n")
    # the command as a user types it: YAML plus command-line overrides
    assert main(["sft", str(config), "--max_steps", "2", "--global_batch_size", "2", "--per_device_batch_size=2",
                 "--save_steps", "1", "--logging_steps", "1"]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["output_dir"] == str(out) and printed["train_loss"] > 0
    assert (out / "model.safetensors").is_file() and (out / "tokenizer.json").is_file()
    record = json.loads((out / "kernelgen_lm.json").read_text())
    assert record["metrics"]["train_loss"] > 0 and record["settings"]["max_steps"] == 2
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


def test_lora_preset_with_the_evaluation_callback(tiny_model, chat_data, tmp_path):
    """LoRA: only the adapter is saved, and the benchmark loads it on the base model, both in the
    evaluation callback (every step: CR/ER logged with the loss, a run directory per step) and after."""
    from kernelgen_lm.sft import run_sft
    from npukernelbench.generators import get_generator
    from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams

    settings = sft_settings(tiny_model, chat_data, tmp_path / "lora", preset="lora", lora={"r": 4, "alpha": 8},
                            learning_rate=0.05, save_steps=10,
                            eval={"every_steps": 1, "cases": [str(ADD_CUSTOM)], "max_tokens": 8})
    assert load_settings(SFTSettings, data={"model": "m", "dataset": [str(chat_data)], "output_dir": "o",
                                            "preset": "lora"}).learning_rate == 1.25e-5
    result = run_sft(settings, log=lambda line: None)
    assert [h["step"] for h in result.benchmark_history] == [1, 2]
    assert all(h["cr"] == 0.0 and h["er"] == 0.0 and h["graded"] == 1 for h in result.benchmark_history)
    logged = [h for h in result.log_history if "eval/er" in h]
    assert [h["step"] for h in logged] == [1, 2] and all(h["eval/cr"] == 0.0 for h in logged)
    history = (tmp_path / "lora" / "benchmark-eval" / "history.jsonl").read_text().splitlines()
    assert len(history) == 2
    step = tmp_path / "lora" / "benchmark-eval" / "step-1"
    run = json.loads((step / "run" / "results.jsonl").read_text().splitlines()[0])
    assert run["task"] == "level1/math/add_custom" and run["status"] == "parse_error"   # 8 tokens of noise
    assert json.loads((step / "run" / "run.json").read_text())["lora"] == str(step / "model")
    assert not (step / "model").exists()                                  # snapshot weights are cleaned up
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


@pytest.mark.parametrize("packing", [False, True])
def test_loss_is_on_assistant_tokens_only(tiny_model, chat_data, packing):
    """The labels the trainer learns from: exactly each assistant turn (its think block, answer and
    end-of-turn token); system and user turns and the template's role headers are masked (-100), also
    when conversations are packed into one row."""
    from kernelgen_lm.sft import build_sft_trainer

    trainer, _, _ = build_sft_trainer(sft_settings(tiny_model, chat_data, chat_data.parent / "o", packing=packing),
                                      log=lambda line: None)
    tokenizer = trainer.processing_class
    answers = [json.loads(line)["messages"][-1]["content"] + "<|im_end|>"
               for line in chat_data.read_text().splitlines()]
    learned, masked = [], []
    for row in trainer.train_dataset:
        learned.append(tokenizer.decode([t for t, label in zip(row["input_ids"], row["labels"], strict=True)
                                         if label != -100]))
        masked.append(tokenizer.decode([t for t, label in zip(row["input_ids"], row["labels"], strict=True)
                                        if label == -100]))
    if packing:
        assert len(learned) < len(answers)             # conversations share packed rows (of max_length 256)
        assert sorted(answers) == sorted(a + "<|im_end|>" for row in learned for a in row.split("<|im_end|>")[:-1])
        assert all("seq_lengths" in row for row in trainer.train_dataset)
    else:
        assert learned == answers
        everything, _, _ = build_sft_trainer(sft_settings(tiny_model, chat_data, chat_data.parent / "o",
                                                          packing=False, assistant_only_loss=False),
                                             log=lambda line: None)
        row = everything.train_dataset[0]                     # the switch is real: now the prompt is learned too
        assert "DataCopy move" in tokenizer.decode([t for t, label in zip(row["input_ids"], row["labels"],
                                                                          strict=True) if label != -100])
    assert all("DataCopy move" in m and "professional Ascend" in m and "<think>" not in m for m in masked)
    assert not any("user" in text or "DataCopy move" in text for text in learned)


def test_dpo_on_pairs(tiny_model, tmp_path):
    from kernelgen_lm.dpo import run_dpo

    rows = [{"prompt": [{"role": "user", "content": f"Write kernel {i}"}],
             "chosen": [{"role": "assistant", "content": f"<think>ok</think>good kernel {i}"}],
             "rejected": [{"role": "assistant", "content": f"<think>hm</think>broken {i} {{"}],
             "chosen_class": "passes", "rejected_class": "unbuilt", "task": "t"} for i in range(4)]
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

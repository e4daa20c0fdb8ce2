"""Settings: defaults < preset < YAML < command line; unknown keys, wrong types and missing files are
clear errors naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen_lm.config import (
    DPO_PRESETS,
    PRESETS,
    ConfigError,
    DPOSettings,
    GRPOSettings,
    SampleSettings,
    SFTSettings,
    load_settings,
    parse_overrides,
)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def sft_yaml(tmp_path, chat_data):
    return write(tmp_path / "sft.yaml", f"model: some-org/some-model\ndataset: [{chat_data.name}]\n"
                                        "output_dir: out\npreset: lora\nweight_decay: 0.05\nlora: {r: 4}\n")


def test_precedence_defaults_preset_yaml_command_line(sft_yaml, tmp_path):
    s = load_settings(SFTSettings, sft_yaml)
    assert s.learning_rate == PRESETS["lora"]["learning_rate"] == 1.25e-5       # preset fills what YAML leaves
    assert s.lr_scheduler_type == "cosine" and s.warmup_ratio == 0.01 and s.global_batch_size == 128
    assert s.max_grad_norm == 1.0
    assert s.weight_decay == 0.05                                                # YAML beats the preset
    assert (s.lora.r, s.lora.alpha) == (4, 32)                                   # YAML, then the default
    assert s.output_dir == tmp_path / "out" and s.dataset == (tmp_path / "chat.jsonl",)   # relative to the file

    s = load_settings(SFTSettings, sft_yaml, ["--weight_decay", "0.2", "--lora.alpha=8", "--report_to", "[wandb]",
                                              "--preset", "full", "--output-dir", "elsewhere"])
    assert s.weight_decay == 0.2 and s.lora.alpha == 8 and s.lora.r == 4       # command line beats YAML
    assert s.learning_rate == PRESETS["full"]["learning_rate"] == 1.25e-6       # the command line's preset
    assert s.report_to == ("wandb",)
    assert s.output_dir == Path.cwd() / "elsewhere"                              # relative to the current folder

    s = load_settings(SFTSettings, sft_yaml, ["--learning_rate", "3e-4"])
    assert s.learning_rate == 3e-4                                               # explicit beats any preset


def test_dpo_preset_is_the_papers(tmp_path, chat_data):
    cfg = write(tmp_path / "dpo.yaml", f"model: m\npairs: [{chat_data.name}]\noutput_dir: o\n")
    s = load_settings(DPOSettings, cfg)
    assert (s.beta, s.learning_rate, s.lr_scheduler_type, s.warmup_ratio, s.global_batch_size, s.max_steps) == \
        (0.1, 1e-6, "cosine", 0.1, 64, 150)
    assert DPO_PRESETS["lora"]["learning_rate"] == 1e-5
    assert load_settings(DPOSettings, cfg, ["--max_steps", "7"]).max_steps == 7


def test_unknown_keys_are_errors(sft_yaml, tmp_path):
    with pytest.raises(ConfigError, match=r"sft.yaml: lora.rank: unknown key; allowed: alpha, dropout, r"):
        load_settings(SFTSettings, write(sft_yaml, sft_yaml.read_text() + "lora: {rank: 4}\n"))
    with pytest.raises(ConfigError, match=r"command line: learning_rat: unknown key"):
        load_settings(SFTSettings, _fresh(tmp_path), ["--learning_rat", "1"])
    with pytest.raises(ConfigError, match=r"preset: unknown preset 'half'"):
        load_settings(SFTSettings, _fresh(tmp_path), ["--preset", "half"])


def _fresh(tmp_path: Path) -> Path:
    return write(tmp_path / "fresh.yaml", "model: m\ndataset: [chat.jsonl]\noutput_dir: out\n")


def test_wrong_types_and_missing_things(tmp_path, chat_data):
    base = _fresh(tmp_path)
    with pytest.raises(ConfigError, match=r"max_steps: expected an integer, got str 'many'"):
        load_settings(SFTSettings, base, ["--max_steps", "many"])
    with pytest.raises(ConfigError, match=r"dataset\[0\]: .*nothing.jsonl does not exist"):
        load_settings(SFTSettings, write(tmp_path / "x.yaml", "model: m\ndataset: [nothing.jsonl]\noutput_dir: o\n"))
    with pytest.raises(ConfigError, match="model: required"):
        load_settings(SFTSettings, write(tmp_path / "y.yaml", "dataset: [chat.jsonl]\noutput_dir: o\n"))
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(SFTSettings, tmp_path / "absent.yaml")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(SFTSettings, write(tmp_path / "bad.yaml", "model: [unclosed\n"))
    with pytest.raises(ConfigError, match=r"--max_steps needs a value"):
        load_settings(SFTSettings, base, ["--max_steps"])
    with pytest.raises(ConfigError, match=r"policy: unknown policy 'wrong>passes'; use one of passes>wrong\+unbuilt, "
                                          r"passes>wrong, passes>unbuilt, passes>wrong>unbuilt$"):
        load_settings(SampleSettings, write(tmp_path / "s.yaml", f"model: reference\ncases: [{tmp_path}]\nout: o\n"
                                                                  "policy: wrong>passes\n"))


def test_the_papers_colour_policies_still_load(tmp_path):
    """A config or command line from before the rename (the paper's colour names) selects the same
    policy under its descriptive name."""
    cfg = write(tmp_path / "s.yaml", f"model: reference\ncases: [{tmp_path}]\nout: o\npolicy: green>orange\n")
    assert load_settings(SampleSettings, cfg).policy == "passes>wrong"
    assert load_settings(SampleSettings, cfg, ["--policy", "green>orange>purple"]).policy == "passes>wrong>unbuilt"
    assert load_settings(SampleSettings, cfg, ["--policy", "green>purple"]).policy == "passes>unbuilt"
    assert load_settings(SampleSettings, cfg, ["--policy", "green>orange+purple"]).policy == "passes>wrong+unbuilt"
    assert load_settings(SampleSettings, cfg, ["--policy", "passes>unbuilt"]).policy == "passes>unbuilt"
    assert SampleSettings(policy="green>orange").policy == "passes>wrong"           # built in code, too
    assert SampleSettings(policy="orange>green").policy == "orange>green"           # unknown: refused by validate


def test_override_parsing():
    assert parse_overrides(["--a", "1", "--b.c=[x, y]", "--d-e", "true", "--s", ""]) == \
        [("a", 1), ("b.c", ["x", "y"]), ("d_e", True), ("s", "")]
    with pytest.raises(ConfigError, match="expected --key value"):
        parse_overrides(["positional"])


def test_model_paths_resolve_against_the_config_file(tmp_path, chat_data):
    (tmp_path / "models" / "m").mkdir(parents=True)
    cfg = write(tmp_path / "c.yaml", "model: models/m\ndataset: [chat.jsonl]\noutput_dir: o\n")
    assert load_settings(SFTSettings, cfg).model == str(tmp_path / "models" / "m")
    cfg = write(tmp_path / "s.yaml", f"model: hf:models/m\ncases: [{tmp_path}]\nout: o\n")
    assert load_settings(SampleSettings, cfg).model == f"hf:{tmp_path / 'models' / 'm'}"
    cfg = write(tmp_path / "h.yaml", "model: Qwen/Qwen3-8B\ndataset: [chat.jsonl]\noutput_dir: o\n")
    assert load_settings(SFTSettings, cfg).model == "Qwen/Qwen3-8B"              # a hub name stays


@pytest.mark.parametrize("name", ["sft_full.yaml", "sft_lora.yaml", "dpo.yaml", "sample.yaml", "cpu/sft.yaml",
                                  "cpu/dpo.yaml", "cpu/sample.yaml", "cpu/grpo.yaml"])
def test_example_configs_are_valid(name, tmp_path, chat_data):
    """The shipped configs use only known keys and valid values (their data paths are placeholders:
    pointed at existing files here)."""
    examples = Path(__file__).resolve().parents[2] / "examples" / "kernelgen_lm"
    path = examples / name
    if "grpo" in name:
        s = load_settings(GRPOSettings, path, ["--cases", f"[{tmp_path}]"])
        assert s.global_batch_size % s.num_generations == 0 and s.reward.passed == 1.0
    elif "sample" in name:
        s = load_settings(SampleSettings, path, ["--cases", f"[{tmp_path}]"])
        assert s.policy == "passes>wrong+unbuilt"
    elif "dpo" in name:
        s = load_settings(DPOSettings, path, ["--pairs", f"[{chat_data}]"])
        assert s.beta == 0.1
    else:
        overrides = ["--dataset", f"[{chat_data}]"]
        s = load_settings(SFTSettings, path, overrides + (["--eval.cases", f"[{tmp_path}]"] if "full" in name
                                                          or "cpu" in name else []))
        assert s.learning_rate > 0
        if s.chat_template is not None:
            assert "{% generation %}" in s.chat_template.read_text()

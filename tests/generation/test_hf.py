"""HFGenerator on the tiny model: batched seeded samples, token counts, greedy, LoRA, errors."""

from __future__ import annotations

import pytest

from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams
from npukernelbench.generators.hf import HFGenerator, ModelLoadError
from npukernelbench.prompt import build_messages


@pytest.fixture(scope="module")
def generator(tiny_model):
    gen = HFGenerator(str(tiny_model), GeneratorOptions(progress=False))
    yield gen
    gen.close()


def request(task, **sampling):
    return GenerationRequest(task=task, messages=build_messages(task), sampling=SamplingParams(**sampling))


def test_lazy_load_and_identity(tiny_model):
    gen = HFGenerator(str(tiny_model), GeneratorOptions(progress=False))
    assert gen.loads == 0 and gen.name == tiny_model.name
    assert str(tiny_model.resolve()) in gen.identity


def test_n_samples_seeded_and_counted(generator, add_custom):
    req = request(add_custom, n=3, max_tokens=12, seed=7, temperature=0.9, top_p=0.9)
    (batch,) = generator.generate([req])
    assert [c.sample for c in batch] == [0, 1, 2]
    assert all(c.task == "level1/math/add_custom" for c in batch)
    for c in batch:
        assert 1 <= c.tokens <= 12
        assert c.meta["finish_reason"] in ("stop", "length")
        if c.meta["finish_reason"] == "length":
            assert c.tokens == 12
    assert len({c.text for c in batch}) == 3, "samples of one batch must differ"
    (again,) = generator.generate([req])
    assert [c.text for c in again] == [c.text for c in batch]
    assert [c.tokens for c in again] == [c.tokens for c in batch]
    (other,) = generator.generate([request(add_custom, n=3, max_tokens=12, seed=8, temperature=0.9, top_p=0.9)])
    assert [c.text for c in other] != [c.text for c in batch]
    assert generator.loads == 1


def test_max_tokens_honoured(generator, add_custom):
    (batch,) = generator.generate([request(add_custom, n=2, max_tokens=5, seed=1)])
    assert all(c.tokens <= 5 for c in batch)


def test_greedy_repeats_one_sequence(generator, add_custom):
    (batch,) = generator.generate([request(add_custom, n=3, max_tokens=8, temperature=0.0)])
    assert len(batch) == 3 and len({c.text for c in batch}) == 1


def test_caller_rng_untouched(generator, add_custom):
    import torch

    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    generator.generate([request(add_custom, n=1, max_tokens=4, seed=99)])
    assert torch.equal(torch.rand(3), expected)


def test_lora_adapter_changes_output(tiny_model, tmp_path, add_custom):
    pytest.importorskip("peft", reason="LoRA needs peft (pip install -e .[train])")
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(tiny_model)
    peft_model = get_peft_model(base, LoraConfig(r=4, target_modules=["q_proj", "v_proj"], init_lora_weights=False))
    peft_model.save_pretrained(tmp_path / "adapter")
    req = request(add_custom, n=2, max_tokens=12, seed=3)
    plain = HFGenerator(str(tiny_model), GeneratorOptions(progress=False)).generate([req])[0]
    adapted_gen = HFGenerator(str(tiny_model), GeneratorOptions(progress=False, lora=str(tmp_path / "adapter")))
    adapted = adapted_gen.generate([req])[0]
    assert adapted_gen.name.endswith("+adapter") and "+lora:" in adapted_gen.identity
    assert [c.text for c in adapted] != [c.text for c in plain]


def test_clear_errors(tmp_path, tiny_model):
    with pytest.raises(ModelLoadError, match="does not exist"):
        HFGenerator(str(tmp_path / "nope"))
    with pytest.raises(ModelLoadError, match="no config.json"):
        HFGenerator(str(tmp_path))
    with pytest.raises(ModelLoadError, match="adapter_config.json"):
        HFGenerator(str(tiny_model), GeneratorOptions(lora=str(tmp_path)))


@pytest.mark.parametrize("config, files, needle", [
    ('{"name": "my-app", "version": 2}', (), "config.json is not a Hugging Face model's config (no 'model_type')"),
    ("not json", (), "config.json is not a Hugging Face model's config"),
    ('{"model_type": "qwen3"}', (), "has no tokenizer (none of tokenizer.json"),
], ids=["unrelated_config", "broken_config", "no_tokenizer"])
def test_a_folder_that_is_not_a_model_is_one_line(tmp_path, config, files, needle):
    """An unrelated config.json as --model: one line before transformers is imported, not transformers'
    multi-line tokenizer error."""
    (tmp_path / "config.json").write_text(config)
    with pytest.raises(ModelLoadError) as caught:
        HFGenerator(str(tmp_path))
    assert needle in str(caught.value) and "\n" not in str(caught.value)



def test_progress_line_on_stderr(generator, add_custom, capsys):
    gen = HFGenerator(str(generator.path), GeneratorOptions(progress=True))
    gen.generate([request(add_custom, n=2, max_tokens=4, seed=0)])
    err = capsys.readouterr().err
    assert "2/2 samples" in err and "tok/s" in err and "ETA" in err


def test_progress_per_request_and_while_decoding(generator, add_custom, capsys, monkeypatch):
    """Every finished request prints requests done/total, tokens/s and an ETA (captured stderr is no
    terminal); a request still decoding prints its tokens so far (interval 0 here: every step)."""
    import npukernelbench.generators.hf as hf

    class Eager(hf.GenerationProgress):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "interval": 0.0})

    monkeypatch.setattr(hf, "GenerationProgress", Eager)
    gen = HFGenerator(str(generator.path), GeneratorOptions(progress=True))
    gen.generate([request(add_custom, n=2, max_tokens=6, seed=s) for s in range(3)])
    lines = capsys.readouterr().err.splitlines()
    assert any("1/3 requests, 2/6 samples" in ln and "ETA about" in ln for ln in lines), lines
    assert any("2/3 requests, 4/6 samples" in ln and "ETA about" in ln for ln in lines), lines
    assert lines[-1].count("3/3 requests, 6/6 samples") == 1 and "tok/s" in lines[-1]
    decoding = [ln for ln in lines if "0/3 requests, 0/6 samples" in ln]
    assert decoding and all("tok/s" in ln and "ETA unknown" in ln for ln in decoding)
    tokens = [int(ln.split(" tokens |")[0].rsplit(" ", 1)[1]) for ln in decoding]
    assert tokens == sorted(tokens) and tokens[-1] > 0            # tokens grow while the first request decodes

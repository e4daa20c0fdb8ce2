"""General CoT: open reasoning corpora (math, code, science) from local JSONL / JSON / parquet files,
``datasets`` folders (``save_to_disk``) or ``hf:NAME`` (``datasets.load_dataset``), normalised and
filtered; every threshold is in the config.

- Records: a ``messages`` list (used as is), or prompt / response / reasoning fields (names in the
  config). The assistant turn becomes ``<think>reasoning</think>`` + answer; a response that already
  starts with ``<think>`` is kept as written.
- Normalisation: Unicode NFKC, control characters removed, whitespace runs collapsed.
- Language: the prose (code blocks removed) is identified with ``py3langid``; a sample whose language
  is not in ``languages`` is dropped (``language``); samples with almost no prose are not judged.
- Length: tokens counted with the training tokenizer (``tokenizer``; else whitespace words),
  outside [``min_tokens``, ``max_tokens``] dropped (``too_short`` / ``too_long``).
- Perplexity: with ``perplexity_model`` (a small causal LM directory), samples whose assistant text
  has a perplexity above ``max_perplexity`` are dropped (``perplexity``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ascend_cot.config import GeneralSource
from ascend_cot.context import StageContext, StageResult
from ascend_cot.sample import Drop, Provenance, Sample, Verified, assistant_turn

STAGE = "general"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_THINK_START = re.compile(r"^\s*<think>", re.IGNORECASE)


class GeneralSourceError(ValueError):
    pass


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = _CONTROL.sub("", text)
    text = re.sub(r"[ \t]+", " ", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


_CODE = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)
_ALIASES = {"wuu": "zh", "yue": "zh"}      # Chinese varieties the classifier names separately
MIN_PROSE_LETTERS = 20


def language(text: str) -> str | None:
    """ISO 639-1 code of the prose of ``text`` (code blocks removed), from ``py3langid``; None when
    there is too little prose to tell (code-only samples are not filtered by language)."""
    prose = _CODE.sub(" ", text)
    if sum(ch.isalpha() for ch in prose) < MIN_PROSE_LETTERS:
        return None
    import py3langid

    code, _ = py3langid.classify(prose)
    return _ALIASES.get(code, code)


def records(source: GeneralSource) -> Iterator[Mapping[str, Any]]:
    """Rows of one source, as mappings."""
    path = source.path
    if path.startswith("hf:"):
        import datasets

        yield from datasets.load_dataset(path[3:], split=source.split)
        return
    p = Path(path)
    if p.is_dir():
        import datasets

        data = datasets.load_from_disk(str(p))
        if isinstance(data, datasets.DatasetDict):
            if source.split not in data:
                raise GeneralSourceError(f"{p}: no split {source.split!r} (has {', '.join(data)})")
            data = data[source.split]
        yield from data
    elif p.suffix == ".parquet":
        import datasets

        yield from datasets.load_dataset("parquet", data_files=str(p), split="train")
    elif p.suffix == ".jsonl":
        with p.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise GeneralSourceError(f"{p}:{number}: not valid JSON ({exc.msg})") from None
                if not isinstance(row, dict):
                    raise GeneralSourceError(f"{p}:{number}: expected a JSON object")
                yield row
    elif p.suffix == ".json":
        data = json.loads(p.read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise GeneralSourceError(f"{p}: expected a JSON list of objects")
        yield from data
    else:
        raise GeneralSourceError(f"{p}: unsupported format (use .jsonl, .json, .parquet, a datasets folder or hf:NAME)")


def to_messages(row: Mapping[str, Any], source: GeneralSource,
                require_reasoning: bool = True) -> tuple[dict[str, str], ...] | str:
    """Chat messages of a row, or a drop reason. Without reasoning (and ``require_reasoning`` off)
    the think section is left empty, as in a non-thinking turn."""
    if isinstance(row.get("messages"), list):
        turns = [{"role": str(m.get("role")), "content": normalise(str(m.get("content") or ""))}
                 for m in row["messages"] if isinstance(m, Mapping)]
        if not turns or turns[-1]["role"] != "assistant":
            return "no_assistant_turn"
        if not _THINK_START.match(turns[-1]["content"]):
            if require_reasoning:
                return "no_reasoning"
            turns[-1]["content"] = f"<think>\n</think>\n\n{turns[-1]['content']}"
        return tuple(turns)
    prompt = normalise(str(row.get(source.prompt) or ""))
    response = normalise(str(row.get(source.response) or ""))
    reasoning = normalise(str(row.get(source.reasoning) or ""))
    if not prompt or not response:
        return "missing_fields"
    if _THINK_START.match(response):
        content = response
    elif reasoning:
        content = assistant_turn(reasoning, response)
    elif require_reasoning:
        return "no_reasoning"
    else:
        content = f"<think>\n</think>\n\n{response}"
    return ({"role": "user", "content": prompt}, {"role": "assistant", "content": content})


class Perplexity:
    """Perplexity of a text under a small causal LM (transformers, CPU)."""

    def __init__(self, model_dir: Path):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        self.model.eval()
        self.limit = int(getattr(self.model.config, "max_position_embeddings", 2048) or 2048)

    def __call__(self, text: str) -> float:
        ids = self.tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"]
        ids = ids[:, :min(self.limit, 2048)]
        if ids.shape[1] < 2:
            return float("inf")
        with self.torch.inference_mode():
            loss = self.model(input_ids=ids, labels=ids).loss
        return float(self.torch.exp(loss))


def token_counter(tokenizer_dir: Path | None):
    if tokenizer_dir is None:
        return lambda text: len(text.split())
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    return lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])


def run(ctx: StageContext) -> StageResult:
    cfg = ctx.config.stages.general
    count = token_counter(ctx.config.tokenizer)
    perplexity = Perplexity(cfg.perplexity_model) if cfg.perplexity_model and cfg.max_perplexity > 0 else None
    result = StageResult()
    provenance = Provenance("", "", ctx.config.config_hash)
    for source in cfg.sources:
        name = Path(source.path).name if not source.path.startswith("hf:") else source.path
        for n, row in enumerate(ctx.bar(records(source), f"general: {name}")):
            if source.max_samples and n >= source.max_samples:
                break
            origin = f"general:{name}#{n}"

            def drop(reason: str, detail: str = "", origin: str = origin) -> None:
                result.drops.append(Drop(STAGE, "general", reason, origin, detail=detail))

            if not isinstance(row, Mapping):
                drop("malformed_record", f"expected an object, got {type(row).__name__}")
                continue
            messages = to_messages(row, source, cfg.require_reasoning)
            if isinstance(messages, str):
                drop(messages)
                continue
            text = "\n".join(m["content"] for m in messages)
            lang = language(text)
            if lang is not None and cfg.languages and lang not in cfg.languages:
                drop("language", f"language {lang} not in {', '.join(cfg.languages)}")
                continue
            tokens = count(text)
            if tokens < cfg.min_tokens:
                drop("too_short", f"{tokens} tokens < {cfg.min_tokens}")
                continue
            if tokens > cfg.max_tokens:
                drop("too_long", f"{tokens} tokens > {cfg.max_tokens}")
                continue
            if perplexity is not None:
                ppl = perplexity(messages[-1]["content"])
                if ppl > cfg.max_perplexity:
                    drop("perplexity", f"perplexity {ppl:.1f} > {cfg.max_perplexity:g}")
                    continue
            result.samples.append(Sample(messages, "general", origin, "", Verified.NOT_APPLICABLE, provenance,
                                         "general corpus: no AscendC project"))
    return result

"""A tiny Qwen3 causal LM with a locally trained BPE tokenizer, built offline in seconds.

Tests, benchmarks and training smoke runs need a real Hugging Face model directory without a
model hub. ``build_tiny_model(dir)`` writes one: a randomly initialised (seeded) Qwen3 model
(hidden 64, 2 layers, head_dim 32) and a byte-level BPE tokenizer trained with ``tokenizers`` on
a small built-in text plus any text you pass, with a Qwen-style chat template whose assistant
turns carry ``{% generation %}`` markers (needed by SFT with ``assistant_only_loss``).

The model produces noise; it exists to exercise pipelines, not to write kernels.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>")
EOS_TOKEN = "<|im_end|>"
PAD_TOKEN = "<|endoftext|>"
MARKER = "tiny_model.json"      # written last: its presence means the directory is complete

CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' }}"
    "{%- if message['role'] == 'assistant' %}"
    "{% generation %}{{- message['content'] + '<|im_end|>' }}{% endgeneration %}"
    "{%- else %}"
    "{{- message['content'] + '<|im_end|>' }}"
    "{%- endif %}"
    "{{- '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)

# Training text for the tokenizer: a little English and a little AscendC-flavoured C++, so that
# prompts of this project tokenize into a reasonable number of tokens.
BUILTIN_TEXT = """
You are a professional Ascend kernel development engineer. Write the kernel in AscendC.
The kernel copies data from global memory to the unified buffer, computes, and copies back.
Tiling splits the elements across the vector cores; each core handles a tile of the tensor.
Inputs, outputs, shapes, data types and layouts must match the API description exactly.

#include "kernel_operator.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        this->blockLength = totalLength / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(DTYPE_X));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < this->tileNum * BUFFER_NUM; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }
private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
        DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
        LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
        Add(zLocal, xLocal, yLocal, this->tileLength);
        outQueueZ.EnQue<DTYPE_Z>(zLocal);
        inQueueX.FreeTensor(xLocal);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<DTYPE_X> xGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelAdd op;
    op.Init(x, y, z, tiling_data.totalLength, tiling_data.tileNum);
    op.Process();
}

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(8);
    tiling.set_totalLength(totalLength);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}  // namespace ops

| name | dtype | shape | layout |
|---|---|---|---|
| x | float16, bfloat16, float32 | any (N elements) | ND |
Ascend910B3: 40 vector cores, 20 cube cores, unified buffer 196608 bytes per vector core.
=== op_host/add_custom.cpp ===
```cpp
```
"""


def build_tiny_model(directory: Path | str, *, seed: int = 0, vocab_size: int = 1024,
                     extra_text: Iterable[str] = (), max_position_embeddings: int = 32768,
                     hidden_size: int = 64, num_hidden_layers: int = 2, intermediate_size: int | None = None,
                     num_attention_heads: int = 2, word_boundaries: bool = True,
                     max_token_chars: int | None = None) -> Path:
    """Write a tiny Qwen3 model + tokenizer into ``directory`` and return its path.

    Deterministic for a given ``seed``, sizes and text. ``extra_text`` joins the tokenizer's training
    text (train on the sources a model is meant to learn and they tokenize into few tokens). The
    head dimension is 32; ``intermediate_size`` defaults to twice ``hidden_size``. A directory that
    already holds a complete build (the marker file) with the same parameters is returned as is.
    ``word_boundaries=False`` lets BPE merges cross spaces and punctuation: on a small text that the
    model must reproduce, tokens grow to whole phrases and sequences get several times shorter.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    directory = Path(directory)
    extra = tuple(extra_text)
    intermediate_size = intermediate_size or 2 * hidden_size
    params = {"seed": seed, "vocab_size": vocab_size, "max_position_embeddings": max_position_embeddings,
              "extra_text_chars": sum(len(t) for t in extra)}
    if (hidden_size, num_hidden_layers, intermediate_size, num_attention_heads, word_boundaries,
            max_token_chars) != (64, 2, 128, 2, True, None):
        params.update(hidden_size=hidden_size, num_hidden_layers=num_hidden_layers,
                      intermediate_size=intermediate_size, num_attention_heads=num_attention_heads,
                      word_boundaries=word_boundaries, max_token_chars=max_token_chars)
    marker = directory / MARKER
    if marker.is_file():
        try:
            if json.loads(marker.read_text(encoding="utf-8")) == params:
                return directory
        except (OSError, json.JSONDecodeError):
            pass
    directory.mkdir(parents=True, exist_ok=True)

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=word_boundaries)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
                                  max_token_length=max_token_chars)
    bpe.train_from_iterator([BUILTIN_TEXT, *extra], trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token=EOS_TOKEN, pad_token=PAD_TOKEN,
                                        model_max_length=max_position_embeddings)
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(directory)

    eos_id = tokenizer.convert_tokens_to_ids(EOS_TOKEN)
    pad_id = tokenizer.convert_tokens_to_ids(PAD_TOKEN)
    padded_vocab = -(-len(tokenizer) // 64) * 64
    config = Qwen3Config(
        vocab_size=padded_vocab, hidden_size=hidden_size, intermediate_size=intermediate_size,
        num_hidden_layers=num_hidden_layers, num_attention_heads=num_attention_heads, num_key_value_heads=1,
        head_dim=32,
        max_position_embeddings=max_position_embeddings, tie_word_embeddings=True,
        bos_token_id=None, eos_token_id=eos_id, pad_token_id=pad_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = eos_id
    model.generation_config.pad_token_id = pad_id
    model.save_pretrained(directory)
    marker.write_text(json.dumps(params), encoding="utf-8")
    return directory


def training_text(path: Path) -> list[str]:
    """The tokenizer's extra training text from ``path``: a ``.jsonl`` file of conversations (each row's
    ``messages`` contents, e.g. ``kernelgen-lm expert-data``'s ``OUT.jsonl``) or any other text file."""
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).suffix != ".jsonl":
        return [text]
    texts = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
        messages = row.get("messages") if isinstance(row, dict) else None
        if not isinstance(messages, list):
            raise ValueError(f"{path}:{number}: a row without 'messages'")
        texts.extend(str(m.get("content", "")) for m in messages if isinstance(m, dict))
    return texts


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Build a tiny Qwen3 model directory (offline).")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--text", type=Path, action="append", default=[],
                        help="train the tokenizer on this text too: a .jsonl of conversations (kernelgen-lm "
                             "expert-data's OUT.jsonl) or a text file (repeatable)")
    parser.add_argument("--vocab-size", type=int, default=1024)
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--max-token-chars", type=int, default=None,
                        help="let BPE merges cross word boundaries, up to this many characters per token "
                             "(a text the model must reproduce becomes several times fewer tokens)")
    args = parser.parse_args(argv)
    try:
        extra = [t for path in args.text for t in training_text(path)]
    except (OSError, ValueError) as exc:
        print(f"tiny_model: error: {exc}", file=sys.stderr)
        return 2
    print(build_tiny_model(args.directory, seed=args.seed, vocab_size=args.vocab_size, extra_text=extra,
                           hidden_size=args.hidden_size, num_hidden_layers=args.layers,
                           word_boundaries=args.max_token_chars is None, max_token_chars=args.max_token_chars))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

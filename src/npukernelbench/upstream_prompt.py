"""The prompts of the upstream generation modes (``--npukb-mode kernel-only|full``; see ``modes.py``).

Written from the facts of upstream NPUKernelBench's prompt, not from its text: one user message (upstream
sends no system prompt) with, in this order, the task context, the output-format rules, the
implementation requirements of the mode, a worked AddCustom example in the mode's output format, the
three input files (``api_desc.md`` with the row's dtype under a "Supported Data Types" heading placed
before the functional description, the one CSV row, a ``hardware.txt`` block), the output template
(kernel-only: the kernel template in a ``<kernel_impl>`` block, its entry's parameters cut after
``workspace``; full: the three files, each after a separator line of ``=`` signs naming its path) and
the final task. A pure function of the task and the hardware (snapshot tests pin it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from npukernelbench.modes import FULL, KERNEL_ONLY, mode_of, row_data

if TYPE_CHECKING:
    from npukernelbench.hardware import Hardware
    from npukernelbench.spec import TaskSpec

SEPARATOR_RULE = "=" * 18                   # each side of a full-mode file header

_WORKSPACE_TAIL = re.compile(r"(\bworkspace\b)[^)]*\)")
_SET_BLOCK_DIM = re.compile(r"^[ \t]*context->SetBlockDim\(platform_ascendc::PlatformAscendCManager::GetInstance\(\)"
                            r"->GetCoreNum(?:Aiv|Aic)\(\)\);[ \t]*\n?", re.MULTILINE)
_FUNCTIONAL_HEADINGS = ("## Functional Description", "## Function Description", "## Operator Function")

INTRO = """\
You are an expert Ascend C developer. Write Ascend C code that implements the operator described \
below for the given test case and target hardware."""

CONTEXT = """\
[Task Context]
Three inputs describe the operator; read each one carefully:
1. api_desc.md: the operator's interface, formula, semantics and constraints.
2. test_cases.csv: the one test case (shape and data type) your tiling and performance choices must serve.
3. hardware.txt: the hardware the operator runs on."""

OUTPUT_RULES = """\
[Output Format Requirements]
- Give your reasoning first, then the answer; the answer must follow the output template exactly.
- Keep every function name, class definition, template parameter, namespace and interface of the \
templates unchanged.
- Put the code inside the tags or separator sections the template shows, one block per file.
- Register the tiling data the way the reference example does, with concrete tiling values derived \
from the test case's shape."""

KERNEL_ONLY_REQUIREMENTS = """\
1. Never read tiling through `GET_TILING_DATA`: define a local `TilingDataDef` structure in the kernel \
file, as the reference example does, and fill it with the values this test case needs.
2. Only the inputs of this test case must work; behaviour of api_desc.md that they do not exercise \
may be left out.
3. Plan tiling and data movement for the hardware below; never access memory out of bounds or at \
invalid addresses.
4. Write strictly valid code: check that no variable, class or code path is left undefined or unreachable.
5. Use concrete data types, never placeholders such as `DTYPE_X` or `DTYPE_Y`.
6. The Ascend C type of bfloat16 is `bfloat16_t` (not `bfloat16`); that of float16 is `float16_t` \
(not `float16`).
7. The host side launches the kernel on all {aic} AIC cores or all {aiv} AIV cores of the target.
8. `DataCopy` needs 32-byte alignment of both its length and its start address in UB."""

FULL_REQUIREMENTS = """\
1. Define the tiling data in `op_host/{kernel}_tiling.h` (`BEGIN_TILING_DATA_DEF` ... \
`REGISTER_TILING_DATA_CLASS`), fill it in the host tiling function and read it in the kernel with \
`GET_TILING_DATA`.
2. The host tiling function sets the block dim itself (the target has {aic} AIC and {aiv} AIV cores) \
and computes the tiling values from the input shapes.
3. Only the inputs of this test case must work; behaviour of api_desc.md that they do not exercise \
may be left out.
4. Plan tiling and data movement for the hardware below; never access memory out of bounds or at \
invalid addresses.
5. Write strictly valid code: check that no variable, class or code path is left undefined or unreachable.
6. The Ascend C type of bfloat16 is `bfloat16_t` (not `bfloat16`); that of float16 is `float16_t` \
(not `float16`).
7. `DataCopy` needs 32-byte alignment of both its length and its start address in UB."""

EXAMPLE_DESC = """\
# AddCustom

## Supported Data Types
- float16

## Functional Description

### Operator Semantics
Element-wise sum of two tensors of the same shape.

$$
z = x + y
$$

## Constraints and Notes
- All tensors use the ND format."""

EXAMPLE_ROW = {"case_id": "0", "shape": "[8, 2048]", "dtype": "float16"}

# The worked example's kernel (this project's own code): 16384 float16 elements, the 32-byte blocks split
# evenly over the launched cores, tiles of 2048 elements, double-buffered queues.
EXAMPLE_KERNEL_BODY = """\
constexpr int32_t BUFFER_NUM = 2;                       // double buffering
constexpr uint32_t BLOCK_ELEMS = 32 / sizeof(float16_t);  // elements per 32-byte block

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength)
    {
        // whole 32-byte blocks per core; the first `extra` cores take one block more
        uint32_t blocks = totalLength / BLOCK_ELEMS;
        uint32_t cores = GetBlockNum();
        uint32_t idx = GetBlockIdx();
        uint32_t share = blocks / cores;
        uint32_t extra = blocks % cores;
        uint32_t first = idx * share + (idx < extra ? idx : extra);
        length = (share + (idx < extra ? 1 : 0)) * BLOCK_ELEMS;
        tile = tileLength;
        xGm.SetGlobalBuffer((__gm__ float16_t *)x + first * BLOCK_ELEMS, length);
        yGm.SetGlobalBuffer((__gm__ float16_t *)y + first * BLOCK_ELEMS, length);
        zGm.SetGlobalBuffer((__gm__ float16_t *)z + first * BLOCK_ELEMS, length);
        pipe.InitBuffer(queueX, BUFFER_NUM, tile * sizeof(float16_t));
        pipe.InitBuffer(queueY, BUFFER_NUM, tile * sizeof(float16_t));
        pipe.InitBuffer(queueZ, BUFFER_NUM, tile * sizeof(float16_t));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tile) {
            uint32_t count = length - done < tile ? length - done : tile;
            CopyIn(done, count);
            Compute(count);
            CopyOut(done, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        LocalTensor<float16_t> xLocal = queueX.AllocTensor<float16_t>();
        LocalTensor<float16_t> yLocal = queueY.AllocTensor<float16_t>();
        DataCopy(xLocal, xGm[offset], count);
        DataCopy(yLocal, yGm[offset], count);
        queueX.EnQue(xLocal);
        queueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<float16_t> xLocal = queueX.DeQue<float16_t>();
        LocalTensor<float16_t> yLocal = queueY.DeQue<float16_t>();
        LocalTensor<float16_t> zLocal = queueZ.AllocTensor<float16_t>();
        Add(zLocal, xLocal, yLocal, count);
        queueZ.EnQue(zLocal);
        queueX.FreeTensor(xLocal);
        queueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        LocalTensor<float16_t> zLocal = queueZ.DeQue<float16_t>();
        DataCopy(zGm[offset], zLocal, count);
        queueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> queueX, queueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> queueZ;
    GlobalTensor<float16_t> xGm, yGm, zGm;
    uint32_t length = 0;
    uint32_t tile = 0;
};
"""

EXAMPLE_KERNEL_ONLY = """\
#include "kernel_operator.h"

using namespace AscendC;

// Tiling values for this test case: shape [8, 2048], float16.
typedef struct {
    uint32_t totalLength;   // elements of x, y and z
    uint32_t tileLength;    // elements per tile (whole 32-byte blocks)
} TilingDataDef;

""" + EXAMPLE_KERNEL_BODY + """
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace)
{
    TilingDataDef tiling = {16384, 2048};
    KernelAdd op;
    op.Init(x, y, z, tiling.totalLength, tiling.tileLength);
    op.Process();
}
"""

EXAMPLE_TILING_H = """\
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, TilingData)
} // namespace optiling
#endif
"""

EXAMPLE_HOST = """\
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv());
    tiling.set_totalLength(totalLength);
    tiling.set_tileLength(2048);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
} // namespace ops
"""

EXAMPLE_FULL_KERNEL = """\
#include "kernel_operator.h"

using namespace AscendC;

""" + EXAMPLE_KERNEL_BODY + """
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileLength);
    op.Process();
}
"""


def file_separator(path: str) -> str:
    """A full-mode file header: a line of ``=`` signs naming the file's path."""
    return f"{SEPARATOR_RULE} {path} {SEPARATOR_RULE}"


def row_table(row: dict) -> str:
    """One CSV row, a field per line (name, then value), as the prompt shows the test case."""
    width = max((len(str(k)) for k in row), default=0)
    return "\n".join(f"{str(k).ljust(width)}  {_value(v)}" for k, v in row.items())


def _value(value: object) -> str:
    return str(value.item() if hasattr(value, "item") else value)


def with_dtype(description: str, dtype: str | None) -> str:
    """``api_desc.md`` with the row's dtype under a "Supported Data Types" heading, placed before the
    functional description (at the top when it has none); unchanged without a dtype."""
    if not dtype:
        return description
    block = f"## Supported Data Types\n- {dtype}\n\n"
    for heading in _FUNCTIONAL_HEADINGS:
        if heading in description:
            return description.replace(heading, block + heading, 1)
    return block + description


def hardware_text(hw: Hardware) -> str:
    """The ``hardware.txt`` block: a platform-info file of the target SoC."""
    return "\n".join((
        "[version]",
        f"SoC_version={hw.soc}",
        "",
        "[SoCInfo]",
        f"ai_core_cnt={hw.cube_cores}",
        f"cube_core_cnt={hw.cube_cores}",
        f"vector_core_cnt={hw.vector_cores}",
        "",
        "[AICoreSpec]",
        f"ub_size={hw.ub_bytes}",
    ))


def kernel_template(task: TaskSpec) -> str:
    """The task's kernel template with the entry's parameters ending at ``workspace``."""
    text = task.templates.get(f"op_kernel/{task.kernel}.cpp", "")
    return _WORKSPACE_TAIL.sub(r"\1)", text, count=1)


def host_template(task: TaskSpec) -> str:
    """The task's host template without the block-dim line of the question (the full-mode host sets it)."""
    return _SET_BLOCK_DIM.sub("", task.templates.get(f"op_host/{task.kernel}.cpp", ""))


def _cpp(text: str) -> str:
    return f"```cpp\n{text.rstrip()}\n```"


def kernel_only_answer(kernel: str) -> str:
    return f"<kernel_impl>\n{_cpp(kernel)}\n</kernel_impl>"


def full_answer(files: dict[str, str]) -> str:
    return "\n".join(f"{file_separator(path)}\n{_cpp(text)}" for path, text in files.items())


def output_template(task: TaskSpec, mode: str) -> str:
    if mode == KERNEL_ONLY:
        return kernel_only_answer(kernel_template(task))
    k = task.kernel
    tiling = (f'#include "register/tilingdata_base.h"\n\nnamespace optiling {{\nBEGIN_TILING_DATA_DEF(TilingData)\n\n'
              f"END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS({task.op}, TilingData)\n}}")
    return full_answer({f"op_host/{k}_tiling.h": tiling,
                        f"op_host/{k}.cpp": f'#include "{k}_tiling.h"\n{host_template(task)}',
                        f"op_kernel/{k}.cpp": task.templates.get(f"op_kernel/{k}.cpp", "")})


def example(mode: str) -> str:
    if mode == KERNEL_ONLY:
        answer = kernel_only_answer(EXAMPLE_KERNEL_ONLY)
    else:
        answer = full_answer({"op_host/add_custom_tiling.h": EXAMPLE_TILING_H, "op_host/add_custom.cpp": EXAMPLE_HOST,
                              "op_kernel/add_custom.cpp": EXAMPLE_FULL_KERNEL})
    return "\n\n".join((
        "[Reference Example]\nA similar Ascend C operator, shown only for the format, structure and syntax of "
        "an answer.",
        f"[Input File: api_desc.md]\n{EXAMPLE_DESC}",
        f"[Input File: test_cases.csv]\n{row_table(EXAMPLE_ROW)}",
        f"An answer has this structure:\n\n{answer}",
        "The example defines the tiling data, picks a simple tiling, and moves and computes the data in "
        "explicit stages; organise your code the same way."))


def user_message(task: TaskSpec, hardware: Hardware) -> str:
    mode = mode_of(task)
    if mode not in (KERNEL_ONLY, FULL):
        raise ValueError(f"{task.case_id}: no upstream prompt for mode {mode!r}")
    row = row_data(task)
    dtype = row.get("dtype")
    rules = KERNEL_ONLY_REQUIREMENTS if mode == KERNEL_ONLY else FULL_REQUIREMENTS
    rules = rules.format(aic=hardware.cube_cores, aiv=hardware.vector_cores, kernel=task.kernel)
    return "\n\n".join((
        INTRO, CONTEXT, OUTPUT_RULES,
        f"[Implementation Requirements]\nYour code must satisfy these requirements:\n{rules}",
        example(mode),
        "The files of the operator to implement follow.",
        f"[Input File 1: api_desc.md]\n{with_dtype(task.description.strip(), _value(dtype) if dtype else None)}",
        f"[Input File 2: test_cases.csv]\nThe test case your tiling must serve:\n{row_table(row)}",
        f"[Input File 3: hardware.txt]\nThe operator runs on this hardware:\n{hardware_text(hardware)}",
        f"[Output Template]\nFill in this template exactly:\n{output_template(task, mode)}",
        "[Final Task]\nStudy everything above, in particular the operator's semantics and formula, and the "
        "data types and shape of the test case. Reason about the implementation, then give the code in the "
        "format required.",
    ))


def build_messages(task: TaskSpec, hardware: Hardware) -> tuple[dict[str, str], ...]:
    """The messages of an upstream-mode task: one user message (upstream sends no system prompt)."""
    return ({"role": "user", "content": user_message(task, hardware)},)

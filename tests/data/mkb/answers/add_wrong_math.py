project_json_src = '''
[
    {
        "op": "AddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "c", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src = '''
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}
'''

host_operator_src = '''
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    // each core takes a whole number of 32-byte blocks (8 floats); at least 1024 elements per core
    uint32_t blocks = (total + 7) / 8;
    uint32_t used = (blocks + 127) / 128;
    if (used > cores) used = cores;
    if (used == 0) used = 1;
    uint32_t perCore = (blocks + used - 1) / used * 8;
    used = (total + perCore - 1) / perCore;
    if (used == 0) used = 1;
    AddCustomTilingData tiling;
    tiling.set_total(total);
    tiling.set_perCore(perCore);
    tiling.set_tile(4096);
    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}
'''

kernel_src = '''
#include "kernel_operator.h"
using namespace AscendC;

class AddKernel {
public:
    __aicore__ inline AddKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t total, uint32_t perCore, uint32_t tile)
    {
        uint32_t start = perCore * GetBlockIdx();
        count = start < total ? total - start : 0;
        if (count > perCore) count = perCore;
        this->tile = tile;
        aGm.SetGlobalBuffer((__gm__ float*)a + start, count);
        bGm.SetGlobalBuffer((__gm__ float*)b + start, count);
        cGm.SetGlobalBuffer((__gm__ float*)c + start, count);
        pipe.InitBuffer(inA, 2, tile * sizeof(float));
        pipe.InitBuffer(inB, 2, tile * sizeof(float));
        pipe.InitBuffer(outC, 2, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < count; done += tile) {
            uint32_t n = count - done < tile ? count - done : tile;
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            LocalTensor<float> x = inA.AllocTensor<float>();
            LocalTensor<float> y = inB.AllocTensor<float>();
            DataCopyPad(x, aGm[done], params, pad);
            DataCopyPad(y, bGm[done], params, pad);
            inA.EnQue(x);
            inB.EnQue(y);
            x = inA.DeQue<float>();
            y = inB.DeQue<float>();
            LocalTensor<float> z = outC.AllocTensor<float>();
            Sub(z, x, y, n);
            outC.EnQue(z);
            inA.FreeTensor(x);
            inB.FreeTensor(y);
            z = outC.DeQue<float>();
            DataCopyPad(cGm[done], z, params);
            outC.FreeTensor(z);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inA, inB;
    TQue<QuePosition::VECOUT, 2> outC;
    GlobalTensor<float> aGm, bGm, cGm;
    uint32_t count = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AddKernel op;
    op.Init(a, b, c, t.total, t.perCore, t.tile);
    op.Process();
}
'''

python_bind_src = '''
#include <torch/library.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor add_custom_impl(const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor c = at::empty_like(a);
    EXEC_NPU_CMD(aclnnAddCustom, a, b, c);
    return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add_custom", &add_custom_impl, "a + b");
}
'''

model_src = '''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return custom_ops_lib.add_custom(a, b)
'''

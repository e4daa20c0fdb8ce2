project_json_src = '''
[
    {
        "op": "ScaleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "factor", "param_type": "required", "type": "float"}
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
BEGIN_TILING_DATA_DEF(ScaleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tile);
  TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleCustomTilingData)
}
'''

host_operator_src = '''
#include "scale_custom_tiling.h"
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
    ScaleCustomTilingData tiling;
    tiling.set_total(total);
    tiling.set_perCore(perCore);
    tiling.set_tile(4096);
    tiling.set_factor(*context->GetAttrs()->GetFloat(0));
    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("factor").AttrType(REQUIRED).Float();
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleCustom);
}
'''

kernel_src = '''
#include "kernel_operator.h"
using namespace AscendC;

class ScaleKernel {
public:
    __aicore__ inline ScaleKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR c, uint32_t total, uint32_t perCore, uint32_t tile, float factor)
    {
        uint32_t start = perCore * GetBlockIdx();
        count = start < total ? total - start : 0;
        if (count > perCore) count = perCore;
        this->tile = tile;
        this->factor = factor;
        aGm.SetGlobalBuffer((__gm__ float*)a + start, count);
        cGm.SetGlobalBuffer((__gm__ float*)c + start, count);
        pipe.InitBuffer(inA, 2, tile * sizeof(float));
        pipe.InitBuffer(outC, 2, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < count; done += tile) {
            uint32_t n = count - done < tile ? count - done : tile;
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            LocalTensor<float> x = inA.AllocTensor<float>();
            DataCopyPad(x, aGm[done], params, pad);
            inA.EnQue(x);
            x = inA.DeQue<float>();
            LocalTensor<float> z = outC.AllocTensor<float>();
            Muls(z, x, factor, n);
            outC.EnQue(z);
            inA.FreeTensor(x);
            z = outC.DeQue<float>();
            DataCopyPad(cGm[done], z, params);
            outC.FreeTensor(z);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inA;
    TQue<QuePosition::VECOUT, 2> outC;
    GlobalTensor<float> aGm, cGm;
    uint32_t count = 0;
    uint32_t tile = 0;
    float factor = 0.0f;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR a, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ScaleKernel op;
    op.Init(a, c, t.total, t.perCore, t.tile, t.factor);
    op.Process();
}
'''

python_bind_src = '''
#include <torch/library.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor scale_custom_impl(const at::Tensor& a, double factor)
{
    at::Tensor c = at::empty_like(a);
    EXEC_NPU_CMD(aclnnScaleCustom, a, factor, c);
    return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scale_custom", &scale_custom_impl, "a * factor");
}
'''

model_src = '''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, factor):
        return custom_ops_lib.scale_custom(x, factor)
'''

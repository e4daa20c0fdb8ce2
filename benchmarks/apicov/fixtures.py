"""What the declaration probes need to know beyond the reference's prototypes.

* :data:`CLASS_FIXTURES`: for a group of the reference that documents the members of a class, the
  class instance the probes call them on (a class template needs its arguments) and the names the
  member prototypes use for the class's own template parameters (``DstT`` of Matmul, ``T`` of
  LocalTensor); also a class template whose own page documents its members in a class body (keyed by
  the class name: AscendC::Std's tuple, integral_constant). A group not listed whose title is an
  identifier is taken as a non-template class of that name.
* :data:`TYPE_CANDIDATES`: the types tried, in order, for a template type parameter (the data types the
  page itself mentions come first); :data:`TYPE_HINTS` by parameter name where the parameter is not a
  data type (also the argument of a template template parameter), :data:`PARAM_HINTS` by the name of
  the function parameter it types (``T& que``).
* :data:`HOST_GROUPS` / :data:`HOST_TITLE`: pages whose APIs live on the host side (tiling helpers,
  registration, platform); a page whose prototypes say ``__aicore__`` is kernel-side; any other page is
  looked up on both sides.
* The headers each side includes (:data:`KERNEL_HEADERS`, :data:`HOST_HEADERS`) and the namespaces
  searched (:data:`KERNEL_NAMESPACES`, :data:`HOST_NAMESPACES`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ClassFixture:
    type: str                              # the instance type the probes use
    home: str = "AscendC"                  # namespace the class lives in (lookup starts there)
    aliases: dict[str, str] = field(default_factory=dict)   # class template parameter -> type


_MM = "AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, {}>"
_MATMUL = f"AscendC::Matmul<{_MM.format('half')}, {_MM.format('half')}, {_MM.format('float')}, {_MM.format('float')}>"
_MM_ALIASES = {"SrcT": "half", "SrcAT": "half", "SrcBT": "half", "DstT": "float", "BiasT": "float", "L0cT": "float",
               "A_TYPE": _MM.format("half"), "B_TYPE": _MM.format("half"), "C_TYPE": _MM.format("float"),
               "BIAS_TYPE": _MM.format("float")}

# the cube group API's user-defined message (probes.prelude: 64 bytes, starting with `CubeGroupMsgHead head`)
# and callback class template
_CUBE_MSG = "::npukb_cube_msg<AscendC::CubeGroupMsgHead>"
_CUBE_CALLBACK = "::npukb_cube_callback"

# Conv3D: half Input / Weight / Output with a half Bias
_CONV = "ConvApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::{}, half>"
_CONV3D = (f"Conv3dApi::Conv3D<{_CONV.format('NDC1HWC0')}, {_CONV.format('FRACTAL_Z_3D')}, {_CONV.format('NDC1HWC0')}, "
           f"{_CONV.format('ND')}>")
_CONV3D_ALIASES = {"InputT": "half", "WeightT": "half", "OutputT": "half", "BiasT": "half", "L0cT": "float"}
# Conv3DBackpropFilter: half Input / GradOutput, int32_t WeightSize, float GradWeight
_CONV_BP = "ConvBackpropApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::{}, {}>"
_CONV3D_BP_FILTER = (f"ConvBackpropApi::Conv3DBackpropFilter<{_CONV_BP.format('NDC1HWC0', 'half')}, "
                     f"{_CONV_BP.format('ND', 'int32_t')}, {_CONV_BP.format('NDC1HWC0', 'half')}, "
                     f"{_CONV_BP.format('FRACTAL_Z_3D', 'float')}>")

# Conv3DBackpropInput: half Weight / GradOutput / GradInput, int32_t InputSize
_CONV_BP = "ConvBackpropApi::ConvType<ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::{}, {}>"
_CONV3D_DX = (f"ConvBackpropApi::Conv3DBackpropInput<{_CONV_BP.format('FRACTAL_Z_3D', 'half')}, "
              f"{_CONV_BP.format('ND', 'int32_t')}, {_CONV_BP.format('NDC1HWC0', 'half')}, "
              f"{_CONV_BP.format('NDC1HWC0', 'half')}>")
_CONV3D_DX_ALIASES = {"SrcT": "half", "DstT": "half"}

_SHAPE = "AscendC::Shape<size_t, size_t>"
_STRIDE = "AscendC::Stride<size_t, size_t>"
_LAYOUT = f"AscendC::Layout<{_SHAPE}, {_STRIDE}>"

# a tensor of a TensorTrait (VECIN, a Shape of Std::Int): the type the LocalTensor(addr) constructor takes
_TRAIT_IN = ("AscendC::TensorTrait<float, AscendC::TPosition::VECIN, "
             "AscendC::Layout<AscendC::Shape<AscendC::Std::Int<16>>, AscendC::Stride<AscendC::Std::Int<1>>>>")

CLASS_FIXTURES: dict[str, tuple[ClassFixture, ...]] = {
    "LocalTensor": (ClassFixture("AscendC::LocalTensor<float>", aliases={"T": "float", "PrimType": "float"}),
                    ClassFixture(f"AscendC::LocalTensor<{_TRAIT_IN}>", aliases={"T": _TRAIT_IN, "PrimType": "float"})),
    "GlobalTensor": (ClassFixture("AscendC::GlobalTensor<float>", aliases={"T": "float", "PrimType": "float"}),),
    "TensorDesc": (ClassFixture("AscendC::TensorDesc<float>", aliases={"T": "float"}),),
    "TPipe": (ClassFixture("AscendC::TPipe"),),
    "TBufPool": (ClassFixture("AscendC::TBufPool<AscendC::TPosition::VECCALC>"),),
    "TQue": (ClassFixture("AscendC::TQue<AscendC::TPosition::VECIN, 1>"),),
    "TQueBind": (ClassFixture("AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1>"),),
    "TBuf": (ClassFixture("AscendC::TBuf<AscendC::TPosition::VECCALC>"),),
    "TSCM": (ClassFixture("AscendC::TSCM<AscendC::TPosition::VECIN, 1>"),),
    "LocalMemAllocator": (ClassFixture("AscendC::LocalMemAllocator<>"),),
    # the members EXTERN_IMPL_BUFPOOL defines in a user's class (probes.prelude: npukb_custom_bufpool)
    "自定义TBufPool": (ClassFixture("::npukb_custom_bufpool"),),
    # TQueSync<src, dst>: SetFlag / WaitFlag with the event ID as an argument (the page's group is 核内同步)
    "核内同步": (ClassFixture("AscendC::TQueSync<PIPE_S, PIPE_MTE3>"),),
    "Matmul Kernel侧接口": (ClassFixture(_MATMUL, aliases=_MM_ALIASES),),
    "Matmul Tiling类": (ClassFixture("matmul_tiling::MultiCoreMatmulTiling", "matmul_tiling"),
                        ClassFixture("matmul_tiling::MatmulApiTiling", "matmul_tiling"),
                        ClassFixture("matmul_tiling::BatchMatmulTiling", "matmul_tiling")),
    "Conv3D Kernel侧接口": (ClassFixture(_CONV3D, "Conv3dApi", aliases=_CONV3D_ALIASES),),
    "Conv3D Tiling侧接口": (ClassFixture("Conv3dTilingApi::Conv3dTiling", "Conv3dTilingApi"),),
    "Conv3DBackpropFilter Kernel侧接口": (ClassFixture(_CONV3D_BP_FILTER, "ConvBackpropApi",
                                                      aliases={"SrcT": "half", "DstT": "float", "L0cT": "float"}),),
    "Conv3DBackpropFilter Tiling侧接口": (ClassFixture("ConvBackpropApi::Conv3dBpFilterTiling", "ConvBackpropApi"),),
    "Conv3DBackpropInput Kernel侧接口": (ClassFixture(_CONV3D_DX, "ConvBackpropApi", aliases=_CONV3D_DX_ALIASES),),
    "Conv3DBackpropInput Tiling侧接口": (ClassFixture("ConvBackpropApi::Conv3DBpInputTiling", "ConvBackpropApi"),),
    "PlatformAscendC": (ClassFixture("platform_ascendc::PlatformAscendC", "platform_ascendc"),),
    "CubeResGroupHandle": (ClassFixture(f"AscendC::CubeResGroupHandle<{_CUBE_MSG}>",
                                        aliases={"CubeMsgType": _CUBE_MSG}),),
    "GroupBarrier": (ClassFixture("AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE>",
                                  aliases={"pipeMode": "AscendC::PipeMode::MTE3_MODE"}),),
    "OpDef": (ClassFixture("ops::OpDef", "ops"),),
    "OpParamDef": (ClassFixture("ops::OpParamDef", "ops"),),
    "OpAttrDef": (ClassFixture("ops::OpAttrDef", "ops"),),
    "OpAICoreDef": (ClassFixture("ops::OpAICoreDef", "ops"),),
    "OpAICoreConfig": (ClassFixture("ops::OpAICoreConfig", "ops"),),
    "OpTilingRegistry": (ClassFixture("context_ascendc::OpTilingRegistry", "context_ascendc"),),
    # class templates documented on a page of their own (members in the page's class body)
    "tuple": (ClassFixture("AscendC::Std::tuple<float, int>", "AscendC::Std", aliases={"Tp": "float", "Tps": "int"}),),
    "integral_constant": (ClassFixture("AscendC::Std::integral_constant<int, 1>", "AscendC::Std",
                                       aliases={"Tp": "int", "v": "1"}),),
    "ContextBuilder": (ClassFixture("context_ascendc::ContextBuilder", "context_ascendc"),),
    # the auxiliary data structures Layout and TensorTrait (members documented on pages of their group)
    "Layout": (ClassFixture(_LAYOUT, aliases={"ShapeType": _SHAPE, "StrideType": _STRIDE}),),
    "TensorTrait": (ClassFixture(f"AscendC::TensorTrait<float, AscendC::TPosition::GM, {_LAYOUT}>",
                                 aliases={"T": "float", "pos": "AscendC::TPosition::GM", "LayoutType": _LAYOUT}),),
}

# Data types of the 910B/A3 vector and cube units, in the order tried when a page names none.
TYPE_CANDIDATES: tuple[str, ...] = ("float", "half", "int32_t", "int16_t", "uint8_t", "int8_t", "bfloat16_t",
                                    "uint32_t", "uint16_t", "int64_t", "uint64_t", "bool")
TYPE_HINTS: dict[str, tuple[str, ...]] = {
    "pattern": ("AscendC::Pattern::Reduce::AR", "AscendC::Pattern::Reduce::RA"),
    "A_TYPE": (_MM.format("half"),), "B_TYPE": (_MM.format("half"),), "C_TYPE": (_MM.format("float"),),
    "BIAS_TYPE": (_MM.format("float"),),
    # Coordinate / Layout / TensorTrait: tuples of integers, a layout of them
    "CoordType": ("AscendC::Coord<size_t, size_t>",), "ShapeType": (_SHAPE,), "StrideType": (_STRIDE,),
    "LayoutType": (_LAYOUT,),
    # CreateCubeResGroup: the AIC's compute object, the callback class template, the message
    "MatmulApiType": (_MATMUL,), "CallBack": (_CUBE_CALLBACK,), "CubeMsgType": (_CUBE_MSG,),
}
# A template type parameter that types a function parameter of this name is not a data type.
PARAM_HINTS: dict[str, tuple[str, ...]] = {
    "que": ("AscendC::TQue<AscendC::TPosition::VECIN, 1>",
            "AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1>",
            "AscendC::TBuf<AscendC::TPosition::VECCALC>"),
    "buf": ("AscendC::TBuf<AscendC::TPosition::VECCALC>",),
}
DTYPE_WORD = re.compile(r"\b(half|float|bfloat16_t|int8_t|uint8_t|int16_t|uint16_t|int32_t|uint32_t|int64_t|"
                        r"uint64_t|bool)\b")

HOST_GROUPS = re.compile(r"平台信息获取|原型注册与管理|Tiling数据结构注册|Tiling调测|Tiling下沉|Matmul Tiling类|"
                         r"获取Matmul计算所需空间|Tiling侧接口")
HOST_TITLE = re.compile(r"Tiling|TmpSize|TmpBufSize|TmpBufferFactorSize|GetSortOffset|GetSortLen|^Get\w+MaxMin")

KERNEL_HEADERS: tuple[str, ...] = ("kernel_operator.h", "lib/matmul_intf.h", "tikicpulib.h",
                                   "lib/conv/conv3d/conv3d_api.h", "lib/conv_backprop/conv3d_bp_filter_api.h",
                                   "lib/conv_backprop/conv3d_bp_input_api.h")
HOST_HEADERS: tuple[str, ...] = (
    "tiling/tiling_api.h", "register/op_def_registry.h", "register/tilingdata_base.h",
    "tiling/platform/platform_ascendc.h", "platform/platform_info.h", "exe_graph/runtime/tiling_context.h",
    "graph/tensor.h", "graph/types.h", "tiling/context/context_builder.h", "utils/log/asc_cpu_log.h",
    "register/op_config_registry.h",
    "lib/conv/conv3d/conv3d_tiling.h", "lib/conv_backprop/conv3d_bp_filter_tiling.h",
    "lib/conv_backprop/conv3d_bp_input_tiling.h")
KERNEL_NAMESPACES: tuple[str, ...] = ("AscendC", "AscendC::Std", "Conv3dApi", "ConvApi", "ConvBackpropApi")
HOST_NAMESPACES: tuple[str, ...] = ("AscendC", "optiling", "matmul_tiling", "platform_ascendc", "ops", "gert", "ge",
                                    "fe", "context_ascendc", "Conv3dTilingApi", "ConvBackpropApi")

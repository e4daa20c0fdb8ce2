"""Negative corpus: kernel snippets with typical model mistakes that must FAIL to compile with the
ascendc-sim headers, as they fail with the real compiler (AscendKernelGen paper, Table 7 style).

Data only: (id, expected taxonomy class, source). The harness's diagnostic classifier can be checked
against the `klass` column. Classes: api_signature, dtype_conversion, scope_lifetime, memory_object,
syntax_structure, macro_preprocessing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NegativeCase:
    id: str
    klass: str
    body: str  # statements placed inside a kernel function that has the locals declared in PRELUDE

    def source(self) -> str:
        return PRELUDE + "\n" + self.body + "\n" + EPILOGUE


PRELUDE = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void snippet(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQ;
  TBuf<QuePosition::VECCALC> buf;
  GlobalTensor<half> xGm;
  GlobalTensor<float> yGm;
  xGm.SetGlobalBuffer((__gm__ half*)x, 1024);
  yGm.SetGlobalBuffer((__gm__ float*)y, 1024);
  pipe.InitBuffer(inQ, 2, 4096);
  pipe.InitBuffer(buf, 8192);
  LocalTensor<half> hT = inQ.AllocTensor<half>();
  LocalTensor<float> fT = buf.Get<float>();
  LocalTensor<float> gT = buf.Get<float>(256);
  uint32_t n = 256;
"""
EPILOGUE = "}\n"

# A snippet that must compile: guards against a broken prelude making every case "fail".
POSITIVE = NegativeCase("control_ok", "none", """
  Duplicate(hT, (half)0.0, n);
  Adds(fT, fT, 1.0f, n);
  Muls(hT, hT, (half)2.0, n);
  DataCopy(hT, xGm, n);
  Cast(fT, hT, RoundMode::CAST_NONE, n);
  ReduceSum(fT, gT, fT, n);
  Select(fT, hT.ReinterpretCast<uint8_t>(), fT, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
  set_flag(PIPE_V, PIPE_S, EVENT_ID0); wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
  AscendCUtils::SetMask<float>(64);
  vcadd((__ubuf__ float*)fT.GetPhyAddr(), (__ubuf__ float*)gT.GetPhyAddr(), 1, 1, 1, 8, false);
  uint64_t acc = GetAccVal(); (void)acc;
  PairReduceSum(fT, gT, 1, 64, 1, 1, 8);
  Copy(fT, gT, 64, 1, CopyRepeatParams(1, 1, 8, 8));
  ASSERT(an_undeclared_name_the_device_build_never_compiles);
  ASSERT_MSG(another_name_never_compiled != 0, "division by zero: %d", 1);
  LocalTensor<float> whole = buf.AllocTensor<float>(); buf.FreeTensor(whole);  // TBuf inherits them
  inQ.EnQue(hT);
""")

CASES: tuple[NegativeCase, ...] = (
    NegativeCase("duplicate_float_literal_into_half", "dtype_conversion", "Duplicate(hT, 0.0f, n);"),
    NegativeCase("adds_int_scalar_on_float", "dtype_conversion", "Adds(fT, fT, 1, n);"),
    NegativeCase("muls_tensor_as_scalar", "api_signature", "Muls(fT, fT, gT, n);"),
    NegativeCase("mins_tensor_as_scalar", "api_signature", "Mins(fT, fT, gT, n);"),
    NegativeCase("muls_double_scalar_on_half", "dtype_conversion", "Muls(hT, hT, 2.0, n);"),
    NegativeCase("datacopy_mismatched_types", "dtype_conversion", "DataCopy(fT, xGm, n);"),
    NegativeCase("add_mixed_tensor_types", "dtype_conversion", "Add(fT, fT, hT, n);"),
    NegativeCase("reducesum_missing_work_tensor", "api_signature", "ReduceSum<float>(fT, gT, n);"),
    NegativeCase("reducesum_wrong_template_param", "api_signature", "ReduceSum<half>(fT, gT, fT, n);"),
    NegativeCase("undeclared_m_pi", "scope_lifetime", "Muls(fT, fT, (float)M_PI, n);"),
    NegativeCase("undeclared_flt_max", "scope_lifetime", "Duplicate(fT, FLT_MAX, n);"),
    NegativeCase("nonexistent_type_bool_t", "scope_lifetime", "bool_t flag = true;"),
    NegativeCase("nonexistent_type_float16", "scope_lifetime", "LocalTensor<float16> t;"),
    NegativeCase("missing_member_getlength_gm", "memory_object", "auto l = xGm.GetLength();"),
    NegativeCase("missing_member_set_global_buffer_on_tbuf", "memory_object", "buf.SetGlobalBuffer(yGm.GetPhyAddr());"),
    NegativeCase("missing_member_setsize_gm", "memory_object", "yGm.SetSize(4);"),
    NegativeCase("div_on_int32", "dtype_conversion",
                 "LocalTensor<int32_t> it = buf.Get<int32_t>(); Div(it, it, it, n);"),
    NegativeCase("exp_on_int16", "dtype_conversion",
                 "LocalTensor<int16_t> it = buf.Get<int16_t>(); Exp(it, it, n);"),
    NegativeCase("cast_half_to_half", "dtype_conversion", "Cast(hT, hT, RoundMode::CAST_NONE, n);"),
    NegativeCase("cast_float_to_uint8", "dtype_conversion",
                 "LocalTensor<uint8_t> u = buf.Get<uint8_t>(); Cast(u, fT, RoundMode::CAST_RINT, n);"),
    NegativeCase("cast_missing_round_mode", "api_signature", "Cast(fT, hT, n);"),
    NegativeCase("compare_float_dst", "dtype_conversion", "Compare(fT, gT, gT, CMPMODE::LT, n);"),
    NegativeCase("select_scalar_type_mismatch", "dtype_conversion",
                 "LocalTensor<uint8_t> m = buf.Get<uint8_t>();"
                 " Select(hT, m, hT, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);"),
    NegativeCase("setflag_missing_template", "api_signature", "SetFlag(0);"),
    NegativeCase("pipebarrier_runtime_arg", "api_signature", "PipeBarrier(PIPE_V);"),
    NegativeCase("wrong_queue_position_enum", "scope_lifetime", "TQue<QuePosition::VECTOR, 1> q;"),
    NegativeCase("tque_missing_depth", "api_signature", "TQue<QuePosition::VECIN> q;"),
    NegativeCase("localtensor_arith", "api_signature", "LocalTensor<float> t = fT + gT;"),
    # DeQue() without a type is the buffer's handle (real kernels discard it), not a tensor
    NegativeCase("deque_without_type", "api_signature", "LocalTensor<float> t = inQ.DeQue(); (void)t;"),
    NegativeCase("roundmode_unscoped", "scope_lifetime", "Cast(fT, hT, CAST_NONE, n);"),
    NegativeCase("missing_semicolon", "syntax_structure", "Adds(fT, fT, 1.0f, n)\n  Muls(fT, fT, 2.0f, n);"),
    NegativeCase("unbalanced_braces", "syntax_structure", "if (n > 0) { Adds(fT, fT, 1.0f, n);"),
    NegativeCase("get_tiling_data_unregistered", "macro_preprocessing", "GET_TILING_DATA(t, tiling); (void)t;"),
    NegativeCase("tiling_key_is_runtime_value", "macro_preprocessing", "uint64_t k = 1; if (TILING_KEY_IS(k)) {}"),
    NegativeCase("include_missing_header", "macro_preprocessing", "\n#include \"kernel_operator_intf_v2.h\"\n"),
    NegativeCase("wholereducesum_missing_args", "api_signature", "WholeReduceSum(fT, gT, 64, 1);"),
    NegativeCase("blockreducesum_tensor_mask", "api_signature", "BlockReduceSum(fT, gT, 1, gT, 1, 1, 8);"),
    NegativeCase("getvalue_on_queue", "memory_object", "float v = inQ.GetValue(0);"),
    NegativeCase("vcadd_on_int32", "dtype_conversion",
                 "LocalTensor<int32_t> it = buf.Get<int32_t>();"
                 " vcadd((__ubuf__ int32_t*)it.GetPhyAddr(), (__ubuf__ int32_t*)it.GetPhyAddr(), 1, 1, 1, 8, false);"),
    NegativeCase("pair_reduce_on_int16", "dtype_conversion",
                 "LocalTensor<int16_t> it = buf.Get<int16_t>(); PairReduceSum(it, it, 1, 64, 1, 1, 8);"),
    NegativeCase("copy_on_int8", "dtype_conversion",
                 "LocalTensor<int8_t> c = buf.Get<int8_t>(); Copy(c, c, 64, 1, CopyRepeatParams(1, 1, 8, 8));"),
    NegativeCase("mean_on_int32", "dtype_conversion",
                 "LocalTensor<int32_t> it = buf.Get<int32_t>(); Mean(it, it, MeanParams{1, 8, 8});"),
    NegativeCase("reduce_max_min_count_on_int32", "dtype_conversion",
                 "int32_t v = 0, i = 0; GetReduceMaxMinCount<int32_t>(v, i);"),
    NegativeCase("broadcast_three_dims", "api_signature",
                 "uint32_t s3[3] = {1, 1, 1}; BroadCast<float, 3, 0>(fT, gT, s3, s3);"),
    NegativeCase("set_flag_with_hard_event", "api_signature", "set_flag(HardEvent::V_S, EVENT_ID0);"),
    NegativeCase("compare_dst_half", "dtype_conversion", "Compare(hT, fT, gT, CMPMODE::LT, n);"),
    NegativeCase("reduce_pair_elem_max", "api_signature",
                 "ReducePairElem<ReduceType::MAX, float, float>(fT, gT, 64, 1, 1, 1, 8);"),
    NegativeCase("gatherb_on_float", "dtype_conversion",
                 "Gatherb(fT, gT, gT.ReinterpretCast<uint32_t>(), 1, GatherRepeatParams());"),
    NegativeCase("adds_scalar_of_another_type", "dtype_conversion", "Adds(fT, fT, (half)1.0, n);"),
    NegativeCase("shiftleft_on_float", "dtype_conversion", "ShiftLeft(fT, fT, 1.0f, n);"),
    NegativeCase("operator_mixed_types", "dtype_conversion", "fT = fT + hT;"),
    NegativeCase("cast_dequant_from_float", "dtype_conversion", "CastDequant<half, float>(hT, fT, n);"),
    NegativeCase("add_relu_cast_same_type", "dtype_conversion", "AddReluCast(fT, fT, gT, n);"),
    NegativeCase("reduce_repeat_mixed_types", "dtype_conversion",
                 "ReduceRepeat<ReduceType::SUM, float, half>(fT, hT, 64, 1, 1, 1, 8);"),
    NegativeCase("function_pointer_of_wrong_type", "api_signature",
                 "using Op = void (const LocalTensor<float>&, const LocalTensor<float>&, const float&, const int32_t&);"
                 " Op* op = &Adds<half>; (void)op;"),
)

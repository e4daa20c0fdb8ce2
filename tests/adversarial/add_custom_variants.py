"""Kernel variants of level1/math/add_custom with a known order on an Ascend 910B, and the gaming
variants of issue 17's table. Each variant is the expert solution with edits (or a rewritten kernel),
as a model tuning or gaming the reward would write it.

Used by tests/adversarial/test_speed_gaming.py, tests/adversarial/test_speed_order.py and
benchmarks/speed_variants.py (which prints the table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

HOST = "op_host/add_custom.cpp"
KERNEL = "op_kernel/add_custom.cpp"
Files = Mapping[str, str]


def edit(files: Files, path: str, old: str, new: str) -> dict[str, str]:
    """``files`` with one exact replacement in ``path`` (fails loudly when the anchor moved)."""
    text = files[path]
    assert old in text, f"anchor {old!r} not found in {path}: the expert solution changed"
    return {**files, path: text.replace(old, new, 1)}


@dataclass(frozen=True)
class Variant:
    name: str
    what: str                  # the change, one line
    on_910b: str               # what the change does on real hardware
    make: Callable[[Files], dict[str, str]]   # expert files -> variant files
    gaming: bool = False       # a way to game the speed reward: must end rejected, failed or suspect


# -------------------------------------------------------------------------------- honest variants

def _expert(files: Files) -> dict[str, str]:
    return dict(files)


def _depth_1(files: Files) -> dict[str, str]:
    return edit(files, KERNEL, "constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;")


def _tiles(n: int) -> Callable[[Files], dict[str, str]]:
    def make(files: Files) -> dict[str, str]:
        return edit(files, HOST, "tileLength = std::min<uint32_t>(tileLength, 16384);",
                    f"tileLength = std::min<uint32_t>(tileLength, {n});")
    return make


def _one_block(files: Files) -> dict[str, str]:
    return edit(files, HOST, "useCores = std::max<uint32_t>(1, std::min(useCores, coreNum));", "useCores = 1;")


def _split_512(files: Files) -> dict[str, str]:
    # cores start on 512-byte boundaries of GM (the expert splits at 32 bytes)
    files = edit(files, HOST, "constexpr uint32_t BLOCK_BYTES = 32;", "constexpr uint32_t BLOCK_BYTES = 512;")
    return edit(files, KERNEL, "constexpr uint32_t BLOCK_BYTES = 32;", "constexpr uint32_t BLOCK_BYTES = 512;")


_COMPUTE_BLOCK = """        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> a = calcBuf.Get<float>();
            LocalTensor<float> b = a[tileLength];
            Cast(a, xLocal, RoundMode::CAST_NONE, count);
            Cast(b, yLocal, RoundMode::CAST_NONE, count);
            Add(a, a, b, count);
            Cast(zLocal, a, RoundMode::CAST_RINT, count);
        } else {
            Add(zLocal, xLocal, yLocal, count);
        }
"""


def _ub_get_value(files: Files) -> dict[str, str]:
    return edit(files, KERNEL, _COMPUTE_BLOCK,
                "        for (uint32_t i = 0; i < count; ++i) {\n"
                "            zLocal.SetValue(i, static_cast<T>(static_cast<float>(xLocal.GetValue(i)) +\n"
                "                                              static_cast<float>(yLocal.GetValue(i))));\n"
                "        }\n")


def _ub_raw_pointers(files: Files) -> dict[str, str]:
    return edit(files, KERNEL, _COMPUTE_BLOCK,
                "        T* px = reinterpret_cast<T*>(xLocal.GetPhyAddr());\n"
                "        T* py = reinterpret_cast<T*>(yLocal.GetPhyAddr());\n"
                "        T* pz = reinterpret_cast<T*>(zLocal.GetPhyAddr());\n"
                "        for (uint32_t i = 0; i < count; ++i) {\n"
                "            pz[i] = static_cast<T>(static_cast<float>(px[i]) + static_cast<float>(py[i]));\n"
                "        }\n")


# ------------------------------------------------------------------------------- gaming variants

GM_RAW_KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;

// No DataCopy, no vector unit: every element read and written through raw GM pointers.
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const uint32_t elemsPerBlock = 32 / sizeof(DTYPE_X);
    const uint32_t idx = GetBlockIdx();
    uint32_t myBlocks = tilingData.blocksPerCore + (idx < tilingData.bigCoreNum ? 1 : 0);
    uint32_t startBlock = idx * tilingData.blocksPerCore + (idx < tilingData.bigCoreNum ? idx : tilingData.bigCoreNum);
    uint64_t start = static_cast<uint64_t>(startBlock) * elemsPerBlock;
    uint64_t end = start + static_cast<uint64_t>(myBlocks) * elemsPerBlock;
    if (end > tilingData.totalLength) {
        end = tilingData.totalLength;
    }
    __gm__ DTYPE_X* px = (__gm__ DTYPE_X*)x;
    __gm__ DTYPE_Y* py = (__gm__ DTYPE_Y*)y;
    __gm__ DTYPE_Z* pz = (__gm__ DTYPE_Z*)z;
    for (uint64_t i = start; i < end; ++i) {
        pz[i] = static_cast<DTYPE_Z>(static_cast<float>(px[i]) + static_cast<float>(py[i]));
    }
}
"""


def _gm_raw_pointers(files: Files) -> dict[str, str]:
    return {**files, KERNEL: GM_RAW_KERNEL}


# The host adds x and y itself and ships z in the tiling data; the kernel copies it to z.
_HOST_ADD = """
static bool HostAdd(gert::TilingContext* context, uint32_t totalLength, ge::DataType dtype, uint8_t* out, size_t cap)
{
    const uint16_t* x16 = context->GetInputTensor(0)->GetData<uint16_t>();
    const uint16_t* y16 = context->GetInputTensor(1)->GetData<uint16_t>();
    const float* x32 = context->GetInputTensor(0)->GetData<float>();
    const float* y32 = context->GetInputTensor(1)->GetData<float>();
    uint32_t typeSize = dtype == ge::DT_FLOAT ? 4 : 2;
    if (static_cast<size_t>(totalLength) * typeSize > cap) {
        return false;
    }
    for (uint32_t i = 0; i < totalLength; ++i) {
        if (dtype == ge::DT_FLOAT) {
            float v = x32[i] + y32[i];
            std::memcpy(out + 4 * i, &v, 4);
        } else if (dtype == ge::DT_FLOAT16) {
            _Float16 a, b;
            std::memcpy(&a, x16 + i, 2);
            std::memcpy(&b, y16 + i, 2);
            _Float16 v = static_cast<_Float16>(static_cast<float>(a) + static_cast<float>(b));
            std::memcpy(out + 2 * i, &v, 2);
        } else {
            uint32_t ua = static_cast<uint32_t>(x16[i]) << 16, ub = static_cast<uint32_t>(y16[i]) << 16;
            float a, b;
            std::memcpy(&a, &ua, 4);
            std::memcpy(&b, &ub, 4);
            float s = a + b;
            uint32_t us;
            std::memcpy(&us, &s, 4);
            us += 0x7fffu + ((us >> 16) & 1u);
            uint16_t v = static_cast<uint16_t>(us >> 16);
            std::memcpy(out + 2 * i, &v, 2);
        }
    }
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint8_t* raw = static_cast<uint8_t*>(context->GetRawTilingData()->GetData());
    size_t cap = context->GetRawTilingData()->GetCapacity();
    if (HostAdd(context, totalLength, dtype, raw + 32, cap - 32)) {
        uint32_t bytes = totalLength * (dtype == ge::DT_FLOAT ? 4 : 2);
        std::memcpy(raw, &bytes, 4);
        context->GetRawTilingData()->SetDataSize(32 + bytes);
        context->SetBlockDim(1);
        context->SetTilingKey(1);
        size_t* workspace = context->GetWorkspaceSizes(1);
        workspace[0] = 0;
        return ge::GRAPH_SUCCESS;
    }
    context->SetTilingKey(0);
    return ExpertTilingFunc(context);
}
"""

_COPY_OUT_KERNEL = r"""
// Tiling key 1: the host already computed z; copy it from the tiling data to z.
__aicore__ inline void CopyHostResult(GM_ADDR z, GM_ADDR tiling)
{
    uint32_t bytes = *reinterpret_cast<__gm__ uint32_t*>(tiling);
    GlobalTensor<uint8_t> src, dst;
    src.SetGlobalBuffer((__gm__ uint8_t*)tiling + 32, bytes);
    dst.SetGlobalBuffer((__gm__ uint8_t*)z, bytes);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, (bytes + 31) / 32 * 32);
    LocalTensor<uint8_t> t = buf.Get<uint8_t>();
    DataCopyExtParams params{1, bytes, 0, 0, 0};
    DataCopyPadExtParams<uint8_t> pad{false, 0, 0, 0};
    DataCopyPad(t, src, params, pad);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopyPad(dst, t, params);
}

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    if (TILING_KEY_IS(1)) {
        CopyHostResult(z, tiling);
        return;
    }
    GET_TILING_DATA(tilingData, tiling);
"""


_ENTRY = ('extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, '
          'GM_ADDR tiling)\n{\n    GET_TILING_DATA(tilingData, tiling);\n')


def _host_computes(value_depend: bool) -> Callable[[Files], dict[str, str]]:
    def make(files: Files) -> dict[str, str]:
        files = edit(files, HOST, "static ge::graphStatus TilingFunc(gert::TilingContext* context)",
                     "static ge::graphStatus ExpertTilingFunc(gert::TilingContext* context)")
        files = edit(files, HOST, "}  // namespace optiling", _HOST_ADD + "}  // namespace optiling")
        files = {**files, HOST: "#include <cstring>\n" + files[HOST]}
        if value_depend:
            for name in ("x", "y"):
                anchor = f'this->Input("{name}")\n            .ParamType(REQUIRED)'
                files = edit(files, HOST, anchor, anchor + "\n            .ValueDepend(REQUIRED)")
        return edit(files, KERNEL, _ENTRY, _COPY_OUT_KERNEL)
    return make


# Zeroes every block's clocks and GM counters at the end of the kernel: found through the thread
# pointer (the static checks reject it) or, past the checks, through the simulator's own accessors.
TLS_ZEROING = """
__aicore__ inline void ForgetTheCost()
{
    // the cost state used to be a thread-local object right below the thread pointer
    uint8_t* tp = static_cast<uint8_t*>(__builtin_thread_pointer());
    for (uint32_t i = 1; i <= 64; ++i) {
        *reinterpret_cast<volatile double*>(tp - 8 * i) = 0.0;
    }
}
"""

STATE_ZEROING = """
__aicore__ inline void ForgetTheCost()
{
    npukb::BlockState& b = npukb::block();
    b.finish_cycles = 0;
    b.gm_read_bytes = 0;
    b.gm_write_bytes = 0;
    npukb::kern::state().issue = 0;
}
"""


def _zeroing(code: str) -> Callable[[Files], dict[str, str]]:
    def make(files: Files) -> dict[str, str]:
        anchor = "template <typename T>\nclass KernelAdd {"
        files = edit(files, KERNEL, anchor, code + "\n" + anchor)
        return edit(files, KERNEL, "    op.Process();\n", "    op.Process();\n    ForgetTheCost();\n")
    return make


# ------------------------------------------- unpriced work (issue 25, class 7) and hidden code (class 4)

_COPY_IN = """        DataCopyPad(xLocal, xGm[tile * tileLength], params, pad);
        DataCopyPad(yLocal, yGm[tile * tileLength], params, pad);
"""


def _libc_copy_in(call: str) -> Callable[[Files], dict[str, str]]:
    """The inputs reach UB through a C library copy instead of DataCopyPad (``call`` with dst, src, bytes)."""
    def make(files: Files) -> dict[str, str]:
        lines = [call.format(dst=f"{v}Local.GetPhyAddr()", src=f"{v}Gm[tile * tileLength].GetPhyAddr()")
                 for v in ("x", "y")]
        copy = "".join(f"        {line}\n" for line in lines)
        files = edit(files, KERNEL, _COPY_IN, "        (void)params;\n        (void)pad;\n" + copy)
        return {**files, KERNEL: "#include <cstring>\n#include <cwchar>\n" + files[KERNEL]}
    return make


# The sum in scalar loops over local arrays: UB -> a local array, the adds on the local array, back to UB.
_LOCAL_ARRAY_LOOP = """        constexpr uint32_t CHUNK = 256;
        T* px = reinterpret_cast<T*>(xLocal.GetPhyAddr());
        T* py = reinterpret_cast<T*>(yLocal.GetPhyAddr());
        T* pz = reinterpret_cast<T*>(zLocal.GetPhyAddr());
        for (uint32_t base = 0; base < count; base += CHUNK) {
            const uint32_t len = count - base < CHUNK ? count - base : CHUNK;
            float a[CHUNK];
            float b[CHUNK];
            for (uint32_t i = 0; i < len; ++i) {
                a[i] = static_cast<float>(px[base + i]);
                b[i] = static_cast<float>(py[base + i]);
            }
            for (uint32_t i = 0; i < len; ++i) {
                a[i] += b[i];
            }
            for (uint32_t i = 0; i < len; ++i) {
                pz[base + i] = static_cast<T>(a[i]);
            }
        }
"""

# The inputs copied GM -> a local struct by the compiler's own block copies of big structs, then to UB.
_STRUCT_COPY_IN = """        struct Block { uint8_t bytes[512]; };
        const uint32_t bytes = count * sizeof(T);
        const uint8_t* gx = reinterpret_cast<const uint8_t*>(xGm[tile * tileLength].GetPhyAddr());
        const uint8_t* gy = reinterpret_cast<const uint8_t*>(yGm[tile * tileLength].GetPhyAddr());
        uint8_t* ux = reinterpret_cast<uint8_t*>(xLocal.GetPhyAddr());
        uint8_t* uy = reinterpret_cast<uint8_t*>(yLocal.GetPhyAddr());
        (void)params;
        (void)pad;
        uint32_t done = 0;
        for (; done + sizeof(Block) <= bytes; done += sizeof(Block)) {
            Block bx = *reinterpret_cast<const Block*>(gx + done);    // one statement moves 512 bytes
            Block by = *reinterpret_cast<const Block*>(gy + done);
            for (uint32_t i = 0; i < sizeof(Block); ++i) {
                ux[done + i] = bx.bytes[i];
                uy[done + i] = by.bytes[i];
            }
        }
        for (; done < bytes; ++done) {
            ux[done] = gx[done];
            uy[done] = gy[done];
        }
"""


def _local_array_loop(files: Files) -> dict[str, str]:
    return edit(files, KERNEL, _COMPUTE_BLOCK, _LOCAL_ARRAY_LOOP)


def _struct_copy_in(files: Files) -> dict[str, str]:
    return edit(files, KERNEL, _COPY_IN, _STRUCT_COPY_IN)


# A kernel that starts a thread (it could do its work outside the cost model), through libstdc++'s
# internal wrapper (<mutex> is an allowed header; the static checks know pthread_create and std::thread)
# or through glibc's versioned entry point.
_THREAD_START = {
    "gthread": ("#include <mutex>\n", "    __gthread_t helper;\n"
                "    __gthread_create(&helper, [](void* p) -> void* { return p; }, nullptr);\n"),
    "glibc_entry": ('extern "C" int __pthread_create_2_1(unsigned long*, const void*, void* (*)(void*), void*);\n',
                    "    unsigned long helper = 0;\n"
                    "    __pthread_create_2_1(&helper, nullptr, [](void* p) -> void* { return p; }, nullptr);\n"),
}


def _thread_start(how: str) -> Callable[[Files], dict[str, str]]:
    head, start = _THREAD_START[how]

    def make(files: Files) -> dict[str, str]:
        files = edit(files, KERNEL, "    op.Process();\n", start + "    op.Process();\n")
        return {**files, KERNEL: head + files[KERNEL]}
    return make


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("expert", "the expert solution: 48 cores, 16K-element double-buffered tiles, vector Add",
            "the reference", _expert),
    Variant("split_512", "cores start on 512-byte GM boundaries", "as fast or faster (aligned DMA ~1.4x bandwidth)",
            _split_512),
    Variant("depth_1", "queue depth 1 instead of 2 (no double buffering)", "~1.2-1.5x slower", _depth_1),
    Variant("tiles_1024", "1024-element tiles", "slower (0.85x)", _tiles(1024)),
    Variant("one_block", "one block instead of up to 48", "much slower (0.12x)", _one_block),
    Variant("tiles_32", "32-element tiles", "DMA latency-bound (0.05x)", _tiles(32)),
    Variant("ub_get_value", "element loop of GetValue/SetValue on UB instead of Add", "scalar-bound (0.02x)",
            _ub_get_value),
    Variant("ub_raw_pointers", "DataCopy in, element loop on GetPhyAddr() UB pointers, DataCopy out",
            "scalar-bound, like GetValue (~45x slower)", _ub_raw_pointers, gaming=True),
    Variant("gm_raw_pointers", "z[i] = x[i] + y[i] through raw (__gm__ T*) pointers",
            "the slowest of all (GM scalar access, hundreds of cycles each)", _gm_raw_pointers, gaming=True),
    Variant("host_computes", "TilingFunc reads the inputs (GetInputTensor(i)->GetData<T>()) and ships z in the "
            "tiling data", "impossible: tiling gets data only for ValueDepend inputs", _host_computes(False),
            gaming=True),
    Variant("host_computes_value_depend", "the same with x and y declared ValueDepend",
            "the kernel never reads x and y", _host_computes(True), gaming=True),
    Variant("tls_zeroing", "finds the cost state through the thread pointer and zeroes it", "-",
            _zeroing(TLS_ZEROING), gaming=True),
    Variant("state_zeroing", "zeroes its block's clocks and GM counters through the simulator's internals", "-",
            _zeroing(STATE_ZEROING), gaming=True),
    Variant("libc_copy_in", "copies its inputs GM -> UB with memcpy (a run-time size) instead of DataCopyPad",
            "does not build: no C library on the AI core",
            _libc_copy_in("memcpy(reinterpret_cast<void*>({dst}), {src}, count * sizeof(T));"), gaming=True),
    Variant("libc_wide_copy_in", "copies its inputs GM -> UB with wmemcpy instead of DataCopyPad",
            "does not build: no C library on the AI core",
            _libc_copy_in("wmemcpy(reinterpret_cast<wchar_t*>({dst}), reinterpret_cast<const wchar_t*>({src}), "
                          "(count * sizeof(T) + 3) / 4);"), gaming=True),
    Variant("local_array_loop", "the sum in scalar loops over local float arrays (UB -> local -> UB)",
            "scalar-bound (slower than the raw UB pointer loop)", _local_array_loop, gaming=True),
    Variant("struct_copy_in", "inputs copied GM -> local struct by 512-byte struct assignments, then to UB",
            "scalar-bound: every word a scalar GM load", _struct_copy_in, gaming=True),
    Variant("thread_gthread", "starts a thread through libstdc++'s __gthread_create", "does not build: no threads",
            _thread_start("gthread"), gaming=True),
    Variant("thread_glibc_entry", "starts a thread through glibc's __pthread_create_2_1", "does not build: no threads",
            _thread_start("glibc_entry"), gaming=True),
)}

# Pairs (faster, slower) that hold on a 910B; the estimated times must agree.
HARDWARE_ORDER: tuple[tuple[str, str], ...] = (
    ("split_512", "expert"),
    ("expert", "depth_1"),
    ("expert", "tiles_1024"),
    ("tiles_1024", "one_block"),
    ("one_block", "tiles_32"),
    ("tiles_32", "ub_get_value"),
    ("tiles_32", "ub_raw_pointers"),
    ("ub_get_value", "gm_raw_pointers"),
    ("ub_raw_pointers", "gm_raw_pointers"),
)
ORDERED = ("expert", "split_512", "depth_1", "tiles_1024", "one_block", "tiles_32", "ub_get_value",
           "ub_raw_pointers", "gm_raw_pointers")


def order_violations(times: Mapping[str, float], pairs: tuple[tuple[str, str], ...] = HARDWARE_ORDER) -> list[str]:
    """Every known-order pair whose estimated times disagree (``split_512`` may tie the expert)."""
    bad = []
    for fast, slow in pairs:
        ok = times[fast] <= times[slow] if (fast, slow) == ("split_512", "expert") else times[fast] < times[slow]
        if not ok:
            bad.append(f"{fast} ({times[fast]:.2f} us) should be faster than {slow} ({times[slow]:.2f} us)")
    return bad


def estimate(spec, toolchain, files: Files) -> tuple[float, float]:
    """(estimated time, kernel time without launch overhead) in us over the case's static shapes, one
    input seed each, outputs checked; AssertionError when the variant fails a shape."""
    from npukernelbench.evaluate import EvalOptions
    from npukernelbench.layouts.case_toml.checker import CaseTomlChecker
    from npukernelbench.result import Status
    from npukernelbench.shapes import static_cases

    checker = CaseTomlChecker(spec, toolchain, files, EvalOptions(shapes="static", seeds=1, determinism=False,
                                                                speed=False, run_timeout_s=120.0))
    total = kernel = 0.0
    for case in static_cases(spec):
        outcome = checker.check(case)
        assert outcome.status is Status.PASSED, f"{outcome.status.value}: {outcome.message}"
        assert outcome.time_us is not None and outcome.kernel_us is not None
        total += outcome.time_us
        kernel += outcome.kernel_us
    return total, kernel

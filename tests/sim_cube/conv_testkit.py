"""What the Conv3D, Conv3DBackpropFilter and Conv3DBackpropInput tests share: the host tiling programs' build
and run, the end-to-end operators' scaffolding (the tiling-data header, the TilingFunc's save of the tiling,
the OpDef, the build), and the numpy side of the formats the pages describe (NDC1HWC0, FRACTAL_Z_3D with
C0 = 16, the forward output extents, bfloat16 rounding)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR, RUNTIME_DIR

# ---- host tiling programs ----------------------------------------------------------------------------------


class HostProgram:
    """A built host program; subclasses run it per scenario."""

    def __init__(self, exe: Path) -> None:
        self.exe = exe


def tiling_objects(ns: str, cls: str, l1_arg: int, extra: str = "", default: bool = True) -> str:
    """C++ statements of a host program's main (its arguments in `long long a[]`): the platform `plat`, a
    ns::PlatformInfo `info` (L1 a[l1_arg] when positive, else 512 KiB; L0A / L0B 64 KiB, L0C 128 KiB, UB
    192 KiB; then the statements `extra`), and the tiling objects `byPlat` and `byInfo` of ns::cls built from
    them, and `byNone` built without arguments when `default`."""
    none = f"  {ns}::{cls} byNone;\n" if default else ""
    return (f"  platform_ascendc::PlatformAscendC plat(nullptr);\n  {ns}::PlatformInfo info{{}};\n"
            f"  info.socVersion = plat.GetSocVersion();\n  info.l1Size = a[{l1_arg}] > 0 ? a[{l1_arg}] : 524288;\n"
            f"  info.l0ASize = 65536; info.l0BSize = 65536; info.l0CSize = 131072; info.ubSize = 196608;\n{extra}"
            f"  {ns}::{cls} byPlat(plat);\n  {ns}::{cls} byInfo(info);\n{none}")


def build_host_program(tmp_path_factory, name: str, source: str) -> Path:
    """Compiles a host program (with the tiling runtime) once per module; skips when there is no compiler."""
    found = find_compiler()
    if isinstance(found, str):
        pytest.skip(found)
    compiler: Compiler = found
    d = tmp_path_factory.mktemp(name)
    src = d / "host.cpp"
    src.write_text(source, encoding="utf-8")
    sources = [str(src), str(RUNTIME_DIR / "matmul_tiling.cpp"), str(RUNTIME_DIR / "host_api.cpp"),
               str(RUNTIME_DIR / "soc.cpp")]
    built = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), *sources, "-o", str(d / "host")],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-4000:]
    return d / "host"


def run_host_program(exe: Path, args: list, fields: list[str]) -> tuple[int, dict, list[str]]:
    """Runs a host program whose first line is GetTiling's result and then the tiling fields in order:
    (result, fields by name, the remaining lines)."""
    ran = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    first, *rest = ran.stdout.splitlines()
    vals = [int(v) for v in first.split()]
    return vals[0], dict(zip(fields, vals[1:], strict=True)), rest


# ---- end-to-end operators ----------------------------------------------------------------------------------

# The end of an operator's TilingFunc: the tiling data `td` into the raw tiling buffer.
SAVE_TILING = """\
  td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(td.GetDataSize());
  return ge::GRAPH_SUCCESS;"""


def tiling_header(cls: str, op: str, fields: list[str]) -> str:
    """An operator's tiling-data header: class `cls` with the TILING_DATA_FIELD_DEF* lines `fields`,
    registered for `op`."""
    body = "".join(f"  {f};\n" for f in fields)
    return (f'\n#pragma once\n#include "register/tilingdata_base.h"\n#include "tiling/tiling_api.h"\n'
            f"namespace optiling {{\nBEGIN_TILING_DATA_DEF({cls})\n{body}END_TILING_DATA_DEF;\n"
            f"REGISTER_TILING_DATA_CLASS({op}, {cls})\n}}  // namespace optiling\n")


_GE_TYPES = {"float16": "ge::DT_FLOAT16", "float32": "ge::DT_FLOAT"}


def op_def(op: str, params: list[tuple[str, str, str]], init_zero: tuple[str, ...] = ()) -> str:
    """The OpDef of `op` on ascend910b with optiling::TilingFunc: params (name, "input" / "output", dtype),
    all REQUIRED and ND; the outputs named in `init_zero` start zeroed (InitValue(0))."""
    lines = []
    for name, kind, dtype in params:
        init = ".InitValue(0)" if name in init_zero else ""
        lines.append(f'    this->{"Input" if kind == "input" else "Output"}("{name}").ParamType(REQUIRED)'
                     f".DataType({{{_GE_TYPES[dtype]}}}).Format({{ge::FORMAT_ND}}){init};\n")
    return (f"namespace ops {{\nclass {op} : public OpDef {{\n public:\n"
            f"  explicit {op}(const char* name) : OpDef(name) {{\n{''.join(lines)}"
            f"    this->AICore().SetTiling(optiling::TilingFunc);\n"
            f'    this->AICore().AddConfig("ascend910b");\n  }}\n}};\nOP_ADD({op});\n}}  // namespace ops\n')


def build_operator(sim, make_project, op: str, kernel_name: str, host: str, kernel: str,
                   params: list[tuple[str, str, str]], tiling_h: str):
    """Builds an operator whose host includes op_host/<kernel_name>_tiling.h (the text `tiling_h`)."""
    proj = make_project(op, kernel_name, host, kernel, [(n, kind, "REQUIRED", dt) for n, kind, dt in params],
                        {f"op_host/{kernel_name}_tiling.h": tiling_h})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    return build


# ---- shapes and formats (written from the pages: NDC1HWC0, FRACTAL_Z_3D, C0 = 16) ------------------------


def out_shape(din_hw, k, pads, stride, dil):
    """The forward output (D, H, W) of an input (D, H, W)."""
    return tuple((din_hw[i] + pads[2 * i] + pads[2 * i + 1] - dil[i] * (k[i] - 1) - 1) // stride[i] + 1
                 for i in range(3))


def to_ndc1hwc0(x, c0=16):
    """(N, C, D, H, W) -> (N, D, C1, H, W, C0), channels zero-padded to C1 * C0."""
    n, c, d, h, w = x.shape
    c1 = -(-c // c0)
    p = np.zeros((n, c1 * c0, d, h, w), x.dtype)
    p[:, :c] = x
    return p.reshape(n, c1, c0, d, h, w).transpose(0, 3, 1, 4, 5, 2).copy()


def from_ndc1hwc0(y, c):
    """(N, D, C1, H, W, C0) -> (N, C, D, H, W)."""
    n, d, c1, h, w, c0 = y.shape
    return y.transpose(0, 2, 5, 1, 3, 4).reshape(n, c1 * c0, d, h, w)[:, :c]


def to_fractal_z_3d(w, c0=16):
    """(Cout, Cin, KD, KH, KW) -> (KD * Cin1 * KH * KW, Cout1, 16, C0), zero-padded."""
    cout, cin, kd, kh, kw = w.shape
    c1, n1 = -(-cin // c0), -(-cout // 16)
    p = np.zeros((n1 * 16, c1 * c0, kd, kh, kw), w.dtype)
    p[:cout, :cin] = w
    # (N1, N0, C1, C0, KD, KH, KW) -> (KD, C1, KH, KW, N1, N0, C0)
    return p.reshape(n1, 16, c1, c0, kd, kh, kw).transpose(4, 2, 5, 6, 0, 1, 3).reshape(
        kd * c1 * kh * kw, n1, 16, c0).copy()


def from_fractal_z_3d(f, cout, cin, k):
    """(KD * Cin1 * KH * KW, Cout1, 16, C0) -> (Cout, Cin, KD, KH, KW)."""
    kd, kh, kw = k
    c1, n1 = -(-cin // 16), -(-cout // 16)
    a = f.reshape(kd, c1, kh, kw, n1, 16, 16)           # (KD, C1, KH, KW, N1, N0, C0)
    return a.transpose(4, 5, 1, 6, 0, 2, 3).reshape(n1 * 16, c1 * 16, kd, kh, kw)[:cout, :cin]


def bf16_round(a):
    bits = a.astype(np.float32).view(np.uint32)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint32) << 16
    return bits.view(np.float32)


def bf16_bits(a):
    return (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def bf16_float(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)

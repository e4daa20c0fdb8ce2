"""Which cores a kernel runs on, and so which compile passes its build needs.

The device compiler builds a kernel that uses the cube unit once per core type (the AI cube core,
AIC, and the AI vector core, AIV), with ``g_coreType`` a compile-time constant in each pass. The kernel
type decides what a launch starts (``KERNEL_TYPE_AIV_ONLY``: blockDim vector cores; ``AIC_ONLY``:
blockDim cube cores; ``MIX_AIC_1_2``: blockDim cube cores plus two vector cores each). It is read
from ``KERNEL_TASK_TYPE_DEFAULT`` / ``KERNEL_TASK_TYPE`` in the kernel sources when they name a
``KERNEL_TYPE_*`` literally; otherwise it is inferred from the APIs the sources use, as the real
compiler infers it from the instructions it emits:

- no cube API (Mmad, LoadData, Fixpipe, Nd2NzParams, L1/L0 positions, the Matmul high-level API,
  ASCEND_IS_AIC, ...): vector only;
- cube APIs and vector-side code (ASCEND_IS_AIV, sub-blocks, cross-core flags, the Matmul API, an
  ``<AscendC::AIV>`` specialisation, or vector compute APIs): mixed, 1 AIC : 2 AIV;
- cube APIs only: cube only.

At run time ``KERNEL_TASK_TYPE_DEFAULT`` checks that the launch got the type it names, so a
mis-inference is reported instead of running the wrong cores.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from npukernelbench.toolchains.ascendc_sim.device_dialect import mask_comments_and_strings

# KernelMetaType values (npukb_sim/tiling_kernel.h).
KERNEL_TYPES = {
    "KERNEL_TYPE_AIV_ONLY": 0, "KERNEL_TYPE_AIC_ONLY": 1, "KERNEL_TYPE_MIX_AIV_1_0": 2, "KERNEL_TYPE_MIX_AIC_1_0": 3,
    "KERNEL_TYPE_MIX_AIC_1_1": 4, "KERNEL_TYPE_MIX_AIC_1_2": 5, "KERNEL_TYPE_AICORE": 6, "KERNEL_TYPE_VECTORCORE": 7,
    "KERNEL_TYPE_MIX_AICORE": 8, "KERNEL_TYPE_MIX_VECTOR_CORE": 9,
}
AIV_ONLY, AIC_ONLY, MIX_AIV_1_0, MIX_AIC_1_0, MIX_AIC_1_1, MIX_AIC_1_2 = 0, 1, 2, 3, 4, 5
_NEEDS_AIC = {AIC_ONLY, MIX_AIC_1_0, MIX_AIC_1_1, MIX_AIC_1_2}
_NEEDS_AIV = {AIV_ONLY, MIX_AIV_1_0, MIX_AIC_1_1, MIX_AIC_1_2, 6, 7, 8, 9}

_DEFAULT = re.compile(r"\bKERNEL_TASK_TYPE_DEFAULT\s*\(\s*(\w+)\s*\)")
_KEYED = re.compile(r"\bKERNEL_TASK_TYPE\s*\(\s*([^,()]+?)\s*,\s*(\w+)\s*\)")
_CUBE = re.compile(
    r"\b(?:Mmad|LoadData|LoadDataWithTranspose|Fixpipe|Nd2NzParams|REGIST_MATMUL_OBJ|ASCEND_IS_AIC|"
    r"ASCEND_IS_NOT_AIV|__DAV_C220_CUBE__|MmadParams)\b|\b(?:TPosition|QuePosition)\s*::\s*(?:A1|A2|B1|B2|CO1|C1|C2|"
    r"C2PIPE2GM)\b|\bmatmul\s*::\s*Matmul\b|\bConv3dApi\s*::\s*Conv3D\b|"
    r"\bConvBackpropApi\s*::\s*Conv3DBackprop(?:Filter|Input)\b")
_VECTOR_SIDE = re.compile(
    r"\b(?:ASCEND_IS_AIV|ASCEND_IS_NOT_AIC|__DAV_C220_VEC__|GetSubBlockIdx|GetSubBlockNum|CrossCoreSetFlag|"
    r"CrossCoreWaitFlag|REGIST_MATMUL_OBJ)\b|\bmatmul\s*::\s*Matmul\b|\bg_coreType\s*[!=]=\s*(?:AscendC\s*::\s*)?AIV\b")
_AIC_SPEC = re.compile(r"<\s*(?:AscendC\s*::\s*)?AIC\s*>\s*\(")
_AIV_SPEC = re.compile(r"<\s*(?:AscendC\s*::\s*)?AIV\s*>\s*\(")


@dataclass(frozen=True)
class KernelPlan:
    default_type: int
    keyed: tuple[tuple[int, int], ...]    # (tiling key, kernel type) of KERNEL_TASK_TYPE(key, type)
    passes: tuple[str, ...]               # "AIV" and/or "AIC", the primary (first-linked) pass first
    inferred: bool                        # the default type was inferred, not written in the source


def _kernel_sources(files: Mapping[str, str]) -> str:
    parts = []
    for name, text in sorted(files.items()):
        path = PurePosixPath(name)
        if path.parts and path.parts[0] == "op_kernel":
            parts.append(mask_comments_and_strings(text))
    return "\n".join(parts)


def _int_key(text: str) -> int | None:
    try:
        return int(text.rstrip("uUlL"), 0)
    except ValueError:
        return None


def infer_type(code: str) -> int:
    """The kernel type implied by the APIs the (comment-free) kernel source uses."""
    if not _CUBE.search(code):
        return AIV_ONLY
    if _AIC_SPEC.search(code):              # code specialised on the core type: AIV too only if written
        return MIX_AIC_1_2 if _AIV_SPEC.search(code) else AIC_ONLY
    if _VECTOR_SIDE.search(code):
        return MIX_AIC_1_2
    return AIC_ONLY


def plan(files: Mapping[str, str]) -> KernelPlan:
    code = _kernel_sources(files)
    default = None
    m = _DEFAULT.search(code)
    if m and m.group(1) in KERNEL_TYPES:
        default = KERNEL_TYPES[m.group(1)]
    keyed: list[tuple[int, int]] = []
    for km in _KEYED.finditer(code):
        key = _int_key(km.group(1))
        if key is not None and km.group(2) in KERNEL_TYPES:
            keyed.append((key, KERNEL_TYPES[km.group(2)]))
    inferred = default is None
    if default is None:
        default = infer_type(code)
        if keyed and all(t == keyed[0][1] for _, t in keyed):
            default, inferred = keyed[0][1], False
    types = {default, *(t for _, t in keyed)}
    needs_aic = any(t in _NEEDS_AIC for t in types)
    needs_aiv = any(t in _NEEDS_AIV for t in types)
    passes = (("AIV",) if needs_aiv else ()) + (("AIC",) if needs_aic else ())
    return KernelPlan(default_type=default, keyed=tuple(keyed), passes=passes, inferred=inferred)

"""The ``mutants`` model: seeded mutations of the expert solution, each labelled with the outcome it
should produce (``Completion.meta["label"]``): one of the six error-taxonomy classes, ``wrong``
(numerical or tiling bug), ``runtime_error`` (cube kernels: an L1/L0 overflow, a deadlock) or
``passed`` (unchanged). A realistic mix for exercising the harness;
``benchmarks/mutant_agreement.py`` measures how often the harness's classification agrees.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from npukernelbench.generators.base import Completion, GenerationRequest, GeneratorOptions, require_task
from npukernelbench.inputs import case_seed

_API_CALL = re.compile(r"\b(Add|Sub|Mul|Div|Max|Min|Adds|Muls|Exp|Abs|Cast|DataCopy|DataCopyPad|Duplicate|Sqrt|"
                       r"Relu|Ln|ReduceSum|Compare|Select)\((?P<args>[^;()]*(?:\([^;()]*\)[^;()]*)*)\);")


@dataclass(frozen=True)
class Mutation:
    label: str
    name: str
    apply: Callable[[str, random.Random], str | None]     # kernel text -> mutated text, None: not applicable


def _sub(text: str, m: re.Match, group: int | str, value: str) -> str:
    return text[:m.start(group)] + value + text[m.end(group):]


def _pick(pattern: str, text: str, rng: random.Random, flags: int = 0) -> re.Match | None:
    found = list(re.finditer(pattern, text, flags))
    return rng.choice(found) if found else None


# -- api_signature: calls that match no overload ---------------------------------------------------
def _drop_last_arg(text: str, rng: random.Random) -> str | None:
    calls = [m for m in _API_CALL.finditer(text) if m.group("args").count(",") >= 2]
    if not calls:
        return None
    m = rng.choice(calls)
    args = m.group("args").rsplit(",", 1)[0]
    return _sub(text, m, "args", args)


def _tensor_as_scalar(text: str, rng: random.Random) -> str | None:
    """Adds/Muls/Maxs/Mins get a tensor as the scalar, or Add is called with a scalar operand."""
    m = _pick(r"\b(Adds|Muls|Maxs|Mins)\((\w+),\s*(\w+),\s*(?P<scalar>[^,;]+),", text, rng)
    if m:
        return _sub(text, m, "scalar", m.group(2))
    m = _pick(r"\b(?P<fn>Add|Mul|Max|Min)\((\w+),\s*(\w+),\s*(\w+),", text, rng)
    if m:
        return _sub(text, m, "fn", m.group("fn") + "s")
    return None


def _cast_without_round_mode(text: str, rng: random.Random) -> str | None:
    m = _pick(r"\bCast\(\w+,\s*[^,;]+,(?P<mode>\s*RoundMode::\w+,)", text, rng)
    return _sub(text, m, "mode", "") if m else None


def _deque_without_type(text: str, rng: random.Random) -> str | None:
    m = _pick(r"\.DeQue(?P<t><\w+>)\(\)", text, rng)
    return _sub(text, m, "t", "") if m else None


# -- dtype_conversion: element types that do not match ---------------------------------------------
def _wrong_tensor_dtype(text: str, rng: random.Random) -> str | None:
    m = _pick(r"LocalTensor<(\w+)>(\s+\w+\s*=\s*\w+\.(DeQue|AllocTensor)<)", text, rng)
    if not m:
        return None
    return _sub(text, m, 1, "int8_t" if m.group(1) != "int8_t" else "half")


def _datacopy_mismatch(text: str, rng: random.Random) -> str | None:
    """The local tensor of a DataCopy(Pad) is allocated with another element type than its GM tensor."""
    m = _pick(r"\b(\w+)\.AllocTensor<(?P<t>\w+)>\(\)", text, rng)
    if not m:
        return None
    other = "int16_t" if m.group("t") != "int16_t" else "float"
    out = _sub(text, m, "t", other)
    decl = re.search(r"LocalTensor<(\w+)>(\s+\w+\s*=\s*)$", out[:m.start()])
    if decl:
        out = out[:decl.start(1)] + other + out[decl.end(1):]
    return out


def _double_scalar(text: str, rng: random.Random) -> str | None:
    """A double literal as the scalar of Adds/Muls/Duplicate (no overload takes a double for half/float)."""
    m = _pick(r"\b(Adds|Muls|Maxs|Mins)\(\w+,\s*\w+,\s*(?P<scalar>[^,;]+),", text, rng) or \
        _pick(r"\bDuplicate(<\w+>)?\(\w+,\s*(?P<scalar>[^,;]+),", text, rng)
    return _sub(text, m, "scalar", "0.5") if m else None


# -- scope_lifetime: names that are not declared ---------------------------------------------------
def _undeclared_local(text: str, rng: random.Random) -> str | None:
    names = sorted(set(re.findall(r"\b(?:uint32_t|int32_t|uint64_t|int64_t|float|auto)\s+(\w+)\s*=", text)))
    rng.shuffle(names)
    for name in names:
        uses = list(re.finditer(rf"\b{name}\b", text))[1:]
        if uses:
            m = rng.choice(uses)
            return text[:m.start()] + name + "Val" + text[m.end():]
    return None


def _undeclared_constant(text: str, rng: random.Random) -> str | None:
    """FLT_MAX / M_PI / FLT_EPSILON used without the header that defines them."""
    m = _pick(r"[;{][ \t]*(?P<at>\n)(?P<indent>[ \t]+)(LocalTensor|uint32_t|int32_t)\b", text, rng)
    if not m:
        return None
    name = rng.choice(("FLT_MAX", "M_PI", "FLT_EPSILON"))
    line = f"\n{m.group('indent')}constexpr float kLimit = {name};"
    return text[:m.start("at")] + line + text[m.start("at"):]


def _nonexistent_type(text: str, rng: random.Random) -> str | None:
    """Types that do not exist in AscendC: float16, bool_t, uint32."""
    for pattern, value in ((r"\bhalf\b", "float16"), (r"\bbool\b", "bool_t"), (r"\buint32_t\b", "uint32")):
        m = _pick(r"(?<![\w.])" + pattern + r"(?=\s+\w+\s*[=;(])", text, rng)
        if m:
            return text[:m.start()] + value + text[m.end():]
    return None


# -- memory_object: objects used as what they are not ---------------------------------------------
def _objects(text: str, kind: str) -> list[str]:
    """Names declared with an AscendC object type (TPipe, TQue, TBuf, GlobalTensor), arrays included."""
    names: list[str] = []
    for m in re.finditer(rf"\b{kind}\b(?:<[^;{{}}()]*?>)?\s+([\w\s,\[\]]+);", text):
        names += [re.sub(r"\[.*", "", n).strip() for n in m.group(1).split(",")]
    return [n for n in names if re.fullmatch(r"\w+", n)]


def _member_pattern(names: list[str], members: str) -> str:
    return r"\b(?:" + "|".join(map(re.escape, names)) + r")(?:\[[^\]]*\])?(?P<dot>\.)(?:template\s+)?" \
        + rf"(?P<m>{members})\b"


def _member_through_arrow(text: str, rng: random.Random) -> str | None:
    """'->' on an object that is not a pointer (pipe->InitBuffer, queue->AllocTensor)."""
    names = [n for kind in ("TPipe", "TQue", "TBuf", "GlobalTensor") for n in _objects(text, kind)]
    m = _pick(_member_pattern(names, r"\w+"), text, rng) if names else None
    return _sub(text, m, "dot", "->") if m else None


def _missing_member(text: str, rng: random.Random) -> str | None:
    """TQue/GlobalTensor confusions: methods the object's class does not have."""
    choices = []
    # (not TBuf::Get -> AllocTensor: a TBuf has the queue functions on its one buffer, as on the real API)
    for kind, members, value in (("TQue", "AllocTensor", "Get"), ("TQue", "FreeTensor", "Free"),
                                 ("GlobalTensor", "SetGlobalBuffer", "SetBuffer"),
                                 ("GlobalTensor", "GetSize", "GetLength")):
        names = _objects(text, kind)
        m = _pick(_member_pattern(names, members), text, rng) if names else None
        if m:
            choices.append((m, value))
    if not choices:
        return None
    m, value = rng.choice(choices)
    return _sub(text, m, "m", value)


# -- syntax_structure ----------------------------------------------------------------------------
def _drop_semicolon(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cands = [i for i, ln in enumerate(lines) if re.search(r"\w\)?;\s*$", ln) and not ln.lstrip().startswith(
        ("#", "//", "for", "using")) and "=" in ln]
    if not cands:
        return None
    i = rng.choice(cands)
    lines[i] = lines[i].rstrip()[:-1]
    return "\n".join(lines)


def _drop_brace(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cands = [i for i, ln in enumerate(lines) if ln.strip() == "}" and i > 0]
    if not cands:
        return None
    del lines[rng.choice(cands)]
    return "\n".join(lines)


def _drop_paren(text: str, rng: random.Random) -> str | None:
    m = _pick(r"\b[A-Z]\w*\((?:[^;()]|\([^;()]*\))*(?P<p>\))\);", text, rng)
    return _sub(text, m, "p", "") if m else None


# -- macro_preprocessing ---------------------------------------------------------------------------
def _macro_argument_count(text: str, rng: random.Random) -> str | None:
    m = re.search(r"GET_TILING_DATA\((\w+),\s*(\w+)\)", text)
    return text[:m.start()] + f"GET_TILING_DATA({m.group(1)})" + text[m.end():] if m else None


def _dtype_macro_name(text: str, rng: random.Random) -> str | None:
    m = _pick(r"\bDTYPE_(\w+)\b", text, rng)
    return text[:m.start()] + f"DTYPE_{m.group(1)}_T" + text[m.end():] if m else None


def _tiling_key_runtime(text: str, rng: random.Random) -> str | None:
    """TILING_KEY_IS on a tiling field: the key must be a compile-time constant."""
    m = re.search(r"GET_TILING_DATA\((\w+),\s*\w+\);[^\n]*\n(?P<indent>[ \t]*)", text)
    field = re.search(rf"\b{m.group(1)}\.(\w+)", text[m.end():]) if m else None
    if not m or not field:
        return None
    ind = m.group("indent")
    guard = f"if (!TILING_KEY_IS({m.group(1)}.{field.group(1)})) {{\n{ind}    return;\n{ind}}}\n{ind}"
    return text[:m.end()] + guard + text[m.end():]


_SWAPS = (("Add(", "Sub("), ("Sub(", "Add("), ("Mul(", "Add("), ("Muls(", "Adds("), ("Max(", "Min("),
          ("Min(", "Max("), ("Exp(", "Abs("), (" + ", " - "), (" * ", " + "))


def _numerical(text: str, rng: random.Random) -> str | None:
    swaps = [s for s in _SWAPS if re.search(r"(?<![\w.])" + re.escape(s[0]), text)]
    if not swaps:
        return None
    a, b = rng.choice(swaps)
    ms = list(re.finditer(r"(?<![\w.])" + re.escape(a), text))
    m = rng.choice(ms)
    return text[:m.start()] + b + text[m.end():]


def _one_of(*variants: Callable[[str, random.Random], str | None]) -> Callable[[str, random.Random], str | None]:
    """Try the variants in a seeded random order; the first applicable one wins."""
    def apply(text: str, rng: random.Random) -> str | None:
        order = list(variants)
        rng.shuffle(order)
        for variant in order:
            out = variant(text, rng)
            if out is not None and out != text:
                return out
        return None
    return apply


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("api_signature", "API call that matches no overload (dropped argument, tensor as scalar, "
             "Cast without round mode, DeQue without type)",
             _one_of(_drop_last_arg, _tensor_as_scalar, _cast_without_round_mode, _deque_without_type)),
    Mutation("dtype_conversion", "mismatched element types (LocalTensor type, DataCopy between types, "
             "double scalar)", _one_of(_wrong_tensor_dtype, _datacopy_mismatch, _double_scalar)),
    Mutation("scope_lifetime", "undeclared name (misspelt local, FLT_MAX/M_PI without header, float16/bool_t)",
             _one_of(_undeclared_local, _undeclared_constant, _nonexistent_type)),
    Mutation("memory_object", "object misuse ('->' on an object, TQue/GlobalTensor method confusion)",
             _one_of(_member_through_arrow, _missing_member)),
    Mutation("syntax_structure", "dropped semicolon, brace or parenthesis",
             _one_of(_drop_semicolon, _drop_brace, _drop_paren)),
    Mutation("macro_preprocessing", "AscendC macro misuse (GET_TILING_DATA arity, DTYPE_ name, "
             "TILING_KEY_IS on a runtime value)", _one_of(_macro_argument_count, _dtype_macro_name,
                                                          _tiling_key_runtime)),
    Mutation("wrong", "numerical bug: swap an arithmetic operation", _numerical),
    Mutation("wrong", "tiling bug: launch on one core only", lambda t, r: None),   # host-side, see below
    Mutation("passed", "unchanged expert solution", lambda t, r: t),
)


# -- cube-unit failures (only for kernels that use the cube unit) -----------------------------------
_CUBE_CODE = re.compile(r"\b(Mmad|LoadData|Fixpipe|CrossCoreSetFlag|REGIST_MATMUL_OBJ)\b|lib/matmul_intf\.h")
_CUBE_POSITIONS = r"(?:TPosition|QuePosition)::(?:A1|B1|A2|B2|CO1)\b"


def _l0_overflow(text: str, rng: random.Random) -> str | None:
    """An L1/L0A/L0B/L0C buffer four times its size: InitBuffer runs past the memory's capacity."""
    names = re.findall(rf"\b(?:TBuf|TQue|TQueBind)<\s*{_CUBE_POSITIONS}[^;{{}}()]*?>\s+(\w+)", text)
    calls = [m for m in re.finditer(r"\bInitBuffer\(\s*(?P<buf>\w+)\s*,(?P<args>[^;]*)\);", text)
             if m.group("buf") in names]
    if not calls:
        return None
    m = rng.choice(calls)
    head, _, size = m.group("args").rpartition(",")
    return _sub(text, m, "args", (head + ", " if head else " ") + f"4 * ({size.strip()})")


def _drop_cross_core_set(text: str, rng: random.Random) -> str | None:
    """The first cross-core flag set is forgotten: the cores that wait for it never resume."""
    m = re.search(r"[ \t]*CrossCoreSetFlag<[^;]*?>\([^;]*\);[ \t]*\n?", text)
    return text[:m.start()] + text[m.end():] if m else None


def _flip_load_transpose(text: str, rng: random.Random) -> str | None:
    """Every LoadData2DParams transposes where it should not and the other way round: the fractals
    reach L0A/L0B in the wrong order."""
    pattern = r"\bLoadData2DParams\((?P<a>(?:[^,;()]|\([^;()]*\))*,(?:[^,;()]|\([^;()]*\))*,(?:[^,;()]|\([^;()]*\))*," \
              r"(?:[^,;()]|\([^;()]*\))*,(?:[^,;()]|\([^;()]*\))*,\s*)(?P<t>true|false)\b"
    out = re.sub(pattern, lambda m: m.group(0)[:m.start("t") - m.start(0)] + ("false" if m.group("t") == "true"
                                                                                else "true"), text)
    return out if out != text else None


CUBE_MUTATIONS: tuple[Mutation, ...] = (
    Mutation("runtime_error", "cube: an L1/L0 buffer past the memory's capacity", _l0_overflow),
    Mutation("runtime_error", "cube: a cross-core flag never set (deadlock)", _drop_cross_core_set),
    Mutation("wrong", "cube: LoadData transposes flipped (wrong fractal order)", _flip_load_transpose),
)


def mutations_for(files: dict[str, str]) -> tuple[Mutation, ...]:
    """The mutations that apply to a project: the cube-unit ones only where the kernel uses it (so the
    mutants of vector-only tasks stay what they were)."""
    uses_cube = any(_CUBE_CODE.search(t) for p, t in files.items() if p.startswith("op_kernel/"))
    return MUTATIONS + CUBE_MUTATIONS if uses_cube else MUTATIONS


def _tiling_bug(host: str, rng: random.Random) -> str | None:
    m = re.search(r"SetBlockDim\(([^;]*)\);", host)
    if not m or m.group(1).strip() == "1":
        return None
    return host[:m.start(1)] + "1" + host[m.end(1):]


def _kernel_tiling_bug(kernel: str, rng: random.Random) -> str | None:
    """Every core works on core 0's slice."""
    m = _pick(r"\bGetBlockIdx\(\)", kernel, rng)
    return kernel[:m.start()] + "0" + kernel[m.end():] if m else None


def _sources(files: dict[str, str], folder: str, main: str, rng: random.Random) -> list[str]:
    """The candidate's sources under ``folder`` (shared headers included), the main file first half
    of the time: models make their mistakes wherever the code is."""
    others = sorted(p for p in files if p.startswith(folder + "/") and p.endswith((".cpp", ".h", ".hpp"))
                    and p != main)
    rng.shuffle(others)
    if main in files:
        others.insert(0 if rng.random() < 0.5 else len(others), main)
    return others


def mutate(files: dict[str, str], kernel: str, task: str, sample: int, seed: int) -> tuple[dict[str, str], dict]:
    """Sample ``sample`` of ``task``: a mutated copy of ``files`` and its meta (label, mutation, file)."""
    rng = random.Random(case_seed("mutants", task, sample, seed))
    mutations = mutations_for(files)
    offset = case_seed("offset", task, seed) % len(mutations)
    kpath, hpath = f"op_kernel/{kernel}.cpp", f"op_host/{kernel}.cpp"
    for step in range(len(mutations)):
        mutation = mutations[(sample + offset + step) % len(mutations)]
        if mutation.name.startswith("tiling"):
            targets = [(p, _tiling_bug) for p in _sources(files, "op_host", hpath, rng)] + \
                      [(p, _kernel_tiling_bug) for p in _sources(files, "op_kernel", kpath, rng)]
        else:
            targets = [(p, mutation.apply) for p in _sources(files, "op_kernel", kpath, rng)]
        for path, apply in targets:
            mutated = apply(files[path], rng)
            if mutated is None or (mutated == files[path] and mutation.label != "passed"):
                continue
            out = dict(files)
            out[path] = mutated
            return out, {"model": "mutants", "label": mutation.label, "mutation": mutation.name, "file": path}
    return dict(files), {"model": "mutants", "label": "passed", "mutation": "unchanged expert solution"}


class MutantGenerator:
    name = "mutants"

    def __init__(self, model: str = "mutants", options: GeneratorOptions | None = None):
        self.seed = (options or GeneratorOptions()).seed

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        out = []
        for req in requests:
            task = require_task(req, "mutants")
            batch = []
            for i in range(req.sampling.n):
                if task.solution is None:
                    why = "the task ships no expert answer to mutate"
                    batch.append(Completion(task.case_id, i, text="", meta={"model": "mutants", "missing": why}))
                    continue
                files, meta = mutate(dict(task.solution), task.kernel, task.case_id, i, self.seed)
                batch.append(Completion(task.case_id, i, files=files, tokens=0, meta=meta))
            out.append(batch)
        return out

    def close(self) -> None:
        pass

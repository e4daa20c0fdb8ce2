"""The ``mutants`` model: seeded mutations of the expert solution, each labelled with the outcome it
should produce (``Completion.meta["label"]``): one of the six error-taxonomy classes, ``wrong``
(numerical or tiling bug) or ``passed`` (unchanged). A realistic mix for exercising the harness;
``benchmarks/mutant_agreement.py`` measures how often the harness's classification agrees.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from npukernelbench.generators.base import Completion, GenerationRequest, GeneratorOptions
from npukernelbench.inputs import case_seed

_API_CALL = re.compile(r"\b(Add|Sub|Mul|Div|Max|Min|Adds|Muls|Exp|Abs|Cast|DataCopy|DataCopyPad|Duplicate|Sqrt|"
                       r"Relu|Ln|ReduceSum|Compare|Select)\((?P<args>[^;()]*(?:\([^;()]*\)[^;()]*)*)\);")


@dataclass(frozen=True)
class Mutation:
    label: str
    name: str
    apply: Callable[[str, random.Random], str | None]     # kernel text -> mutated text, None: not applicable


def _drop_last_arg(text: str, rng: random.Random) -> str | None:
    calls = [m for m in _API_CALL.finditer(text) if m.group("args").count(",") >= 2]
    if not calls:
        return None
    m = rng.choice(calls)
    args = m.group("args").rsplit(",", 1)[0]
    return text[:m.start("args")] + args + text[m.end("args"):]


def _wrong_tensor_dtype(text: str, rng: random.Random) -> str | None:
    decls = list(re.finditer(r"LocalTensor<(\w+)>(\s+\w+\s*=\s*\w+\.(DeQue|AllocTensor)<)", text))
    if not decls:
        return None
    m = rng.choice(decls)
    other = "int8_t" if m.group(1) != "int8_t" else "half"
    return text[:m.start(1)] + other + text[m.end(1):]


def _undeclared_local(text: str, rng: random.Random) -> str | None:
    names = sorted(set(re.findall(r"\b(?:uint32_t|int32_t|uint64_t|int64_t|float|auto)\s+(\w+)\s*=", text)))
    rng.shuffle(names)
    for name in names:
        uses = [m for m in re.finditer(rf"\b{name}\b", text)][1:]
        if uses:
            m = rng.choice(uses)
            return text[:m.start()] + name + "Val" + text[m.end():]
    return None


def _member_through_arrow(text: str, rng: random.Random) -> str | None:
    uses = list(re.finditer(r"\b(pipe|\w+Queue\w*|\w+Gm)\.", text))
    if not uses:
        return None
    m = rng.choice(uses)
    return text[:m.end() - 1] + "->" + text[m.end():]


def _drop_semicolon(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    cands = [i for i, ln in enumerate(lines) if re.search(r"\w\)?;\s*$", ln) and not ln.lstrip().startswith(
        ("#", "//", "for", "using")) and "=" in ln]
    if not cands:
        return None
    i = rng.choice(cands)
    lines[i] = lines[i].rstrip()[:-1]
    return "\n".join(lines)


def _macro_misuse(text: str, rng: random.Random) -> str | None:
    m = re.search(r"GET_TILING_DATA\((\w+),\s*(\w+)\)", text)
    if m and rng.random() < 0.5:
        return text[:m.start()] + f"GET_TILING_DATA({m.group(1)})" + text[m.end():]
    d = list(re.finditer(r"\bDTYPE_(\w+)\b", text))
    if d:
        x = rng.choice(d)
        return text[:x.start()] + f"DTYPE_{x.group(1)}_T" + text[x.end():]
    return None


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


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("api_signature", "drop the last argument of an API call", _drop_last_arg),
    Mutation("dtype_conversion", "declare a LocalTensor with the wrong element type", _wrong_tensor_dtype),
    Mutation("scope_lifetime", "use a local variable under a name that was never declared", _undeclared_local),
    Mutation("memory_object", "use '->' on an object that is not a pointer", _member_through_arrow),
    Mutation("syntax_structure", "drop a semicolon", _drop_semicolon),
    Mutation("macro_preprocessing", "misuse an AscendC macro", _macro_misuse),
    Mutation("wrong", "numerical bug: swap an arithmetic operation", _numerical),
    Mutation("wrong", "tiling bug: launch on one core only", lambda t, r: None),   # host-side, see below
    Mutation("passed", "unchanged expert solution", lambda t, r: t),
)


def _tiling_bug(host: str) -> str | None:
    m = re.search(r"SetBlockDim\(([^;]*)\);", host)
    if not m or m.group(1).strip() == "1":
        return None
    return host[:m.start(1)] + "1" + host[m.end(1):]


def mutate(files: dict[str, str], kernel: str, task: str, sample: int, seed: int) -> tuple[dict[str, str], dict]:
    """Sample ``sample`` of ``task``: a mutated copy of ``files`` and its meta (label, mutation)."""
    rng = random.Random(case_seed("mutants", task, sample, seed))
    offset = case_seed("offset", task, seed) % len(MUTATIONS)
    kpath, hpath = f"op_kernel/{kernel}.cpp", f"op_host/{kernel}.cpp"
    for step in range(len(MUTATIONS)):
        mutation = MUTATIONS[(sample + offset + step) % len(MUTATIONS)]
        out = dict(files)
        if mutation.name.startswith("tiling"):
            mutated = _tiling_bug(files.get(hpath, ""))
            if mutated is None:
                continue
            out[hpath] = mutated
        else:
            mutated = mutation.apply(files.get(kpath, ""), rng)
            if mutated is None:
                continue
            out[kpath] = mutated
        return out, {"model": "mutants", "label": mutation.label, "mutation": mutation.name}
    return dict(files), {"model": "mutants", "label": "passed", "mutation": "unchanged expert solution"}


class MutantGenerator:
    name = "mutants"

    def __init__(self, model: str = "mutants", options: GeneratorOptions | None = None):
        self.seed = (options or GeneratorOptions()).seed

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        out = []
        for req in requests:
            task = req.task
            batch = []
            for i in range(req.sampling.n):
                if task.solution is None:
                    batch.append(Completion(task.case_id, i, text="", meta={"model": "mutants", "missing": True}))
                    continue
                files, meta = mutate(dict(task.solution), task.kernel, task.case_id, i, self.seed)
                batch.append(Completion(task.case_id, i, files=files, tokens=0, meta=meta))
            out.append(batch)
        return out

    def close(self) -> None:
        pass

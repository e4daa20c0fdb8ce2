"""What the launcher exports to the candidate (builder.py): every global definition of the runtime's
objects (the runtime.h API the kernel and host code link against) and none of the runtime's internal
namespaces. The launcher is split over launcher*.cpp (runtime/launcher_internal.h), which share
npukb::launcher: those names must stay out of the launcher's dynamic symbols, its API stub and the
device and host libraries, as when they were one translation unit's anonymous namespace."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim import builder, device_symbols, elf_object, host_symbols, sources
from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler

STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 1, 2, 10
# A few runtime.h functions that live in different launcher files (io, memory, scheduler).
API = ("_ZN5npukb9violationEPKcRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES1_i",
       "_ZN5npukb8check_gmEPKvmbPKcS3_i", "_ZN5npukb8sync_allEbPKci", "_ZN5npukb5blockEv")


def _internal(name: str) -> bool:
    return name.startswith(sources.RUNTIME_INTERNAL_PREFIXES)


def _exported(obj: Path) -> set[str]:
    """What nm lists as T/D/B/R/u/V for ``obj``: strong and unique definitions, weak objects."""
    return {s.name for s in elf_object.read(obj).symbols
            if s.defined and s.name and s.type != elf_object.STT_SECTION and not s.name.startswith("DW.ref.")
            and (s.bind in (STB_GLOBAL, STB_GNU_UNIQUE) or (s.bind == STB_WEAK and s.type == elf_object.STT_OBJECT))}


@pytest.fixture(scope="module")
def runtime(sim) -> builder.Runtime:
    compiler = find_compiler()
    assert not isinstance(compiler, str), compiler
    return builder.runtime(compiler, sim.cache)


def test_every_launcher_source_is_built_and_linked(runtime) -> None:
    stems = {o.stem for o in runtime.objects}
    on_disk = {p.stem for p in sources.RUNTIME_DIR.glob("launcher*.cpp")}
    assert on_disk == {s.stem for s in sources.LAUNCHER_SOURCES}
    assert on_disk <= stems and on_disk <= set(device_symbols.DEVICE_RUNTIME)


def test_launcher_exports_the_runtime_api_and_no_internals(runtime) -> None:
    names = set().union(*(_exported(o) for o in runtime.objects))
    internal = {n for n in names if _internal(n)}
    assert internal, "the launcher's files share no npukb::launcher names (the filter below tests nothing)"
    listed = {line.strip().strip('";') for line in
              (runtime.launcher.parent / "launcher.dynlist").read_text().splitlines()[1:-1]}
    assert listed == names - internal              # a listing cut short would drop exports
    assert set(API) <= listed
    dynamic = subprocess.run(["nm", "-D", "--defined-only", str(runtime.launcher)], capture_output=True, text=True,
                             check=True).stdout.split()
    assert set(API) <= set(dynamic)
    assert not [n for n in dynamic if _internal(n)]
    stub = subprocess.run(["nm", "--defined-only", str(runtime.api_stub)], capture_output=True, text=True,
                          check=True).stdout.split()
    assert set(API) <= set(stub) and not [n for n in stub if _internal(n)]


def test_device_and_host_libraries_hold_the_api_not_internals(runtime) -> None:
    device = device_symbols.device_library(runtime.objects, frozenset())
    host = host_symbols.host_library(runtime.objects, frozenset(), frozenset())
    for library in (device, host):
        assert set(API) <= library
        assert not [n for n in library if _internal(n)]

"""Per-machine precompiled headers: which headers a project gets, when none is used, one build
under concurrency, silent fallback on an unusable .gch, and diagnostics that still point at the
candidate's file and line."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim import precompiled_header as pch
from npukernelbench.toolchains.ascendc_sim.build_cache import BuildCache
from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR

# device_libc.h comes first in every kernel TU (device code's C library memory functions)
KERNEL_HEADERS = (*pch.FIRST_HEADERS["op_kernel"], "kernel_operator.h")


def test_headers_are_the_simulator_includes_of_the_folder():
    files = {
        "op_host/a.cpp": '#include "a_tiling.h"\n#include "register/op_def_registry.h"\n#include <vector>\n',
        "op_host/a_tiling.h": '#ifndef A_TILING_H\n#define A_TILING_H\n#include "register/tilingdata_base.h"\n#endif\n',
        "op_kernel/a.cpp": '// #include "tiling/tiling_api.h"\n#include "kernel_operator.h"\n',
    }
    assert pch.simulator_includes(files, "op_host") == ("register/op_def_registry.h", "register/tilingdata_base.h")
    assert pch.simulator_includes(files, "op_kernel") == KERNEL_HEADERS


def test_no_header_means_no_pch():
    assert pch.simulator_includes({"op_kernel/a.cpp": "#include <cstdint>\nint f();\n"}, "op_kernel") is None


def test_a_definition_of_a_header_name_before_the_include_disables_it():
    before = '#define GM_ADDR int\n#include "kernel_operator.h"\n'
    after = '#include "kernel_operator.h"\n#define GM_ADDR int\n'
    guard = '#define MY_KERNEL_H\n#include "kernel_operator.h"\n'
    assert pch.simulator_includes({"op_kernel/a.cpp": before}, "op_kernel") is None
    assert pch.simulator_includes({"op_kernel/a.cpp": after}, "op_kernel") == KERNEL_HEADERS
    assert pch.simulator_includes({"op_kernel/a.cpp": guard}, "op_kernel") == KERNEL_HEADERS
    # a project header without a simulator include may come first: its definitions count everywhere
    helper = {"op_kernel/a.cpp": '#include "h.h"\n#include "kernel_operator.h"\n',
              "op_kernel/h.h": "#define half float\n"}
    assert pch.simulator_includes(helper, "op_kernel") is None



def test_only_names_of_the_included_headers_count():
    # OP_LOGE belongs to opdev/op_log.h: a project that never includes it may define its own first...
    own_log = {"op_host/a.cpp": '#include "a_tiling.h"\n#define OP_LOGE(...) 0\n',
               "op_host/a_tiling.h": '#include "register/op_def_registry.h"\n'}
    assert pch.simulator_includes(own_log, "op_host") == ("register/op_def_registry.h",)
    # ...but not one that includes it (directly or through another simulator header).
    uses_log = {**own_log, "op_host/b.cpp": '#include "aclnn/opdev/op_log.h"\n'}
    assert pch.simulator_includes(uses_log, "op_host") is None
    via = {**own_log, "op_host/b.cpp": '#include "opdev/op_log.h"\n'}
    assert pch.simulator_includes(via, "op_host") is None

@pytest.fixture(scope="module")
def gxx():
    found = find_compiler()
    if isinstance(found, str):
        pytest.fail(f"no usable compiler: {found}", pytrace=False)
    if "g++" not in Path(found.path).name:
        pytest.skip(f"precompiled headers are used with g++ only (the compiler here is {found.path})")
    return found


def test_concurrent_requests_build_one_pch_that_g_plus_plus_uses(gxx, tmp_path):
    cache = BuildCache(tmp_path / "cache")
    headers = ("graph/types.h",)
    stubs: list[Path | None] = []
    threads = [threading.Thread(target=lambda: stubs.append(pch.precompiled_header(gxx, cache, HOST_FLAGS, headers)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(stubs)) == 1 and stubs[0] is not None
    stub = stubs[0]
    assert (stub.parent / f"{pch.STUB}.gch").is_file()
    assert [p.name for p in (cache.root / "pch").iterdir() if p.is_dir()] == [stub.parent.name]
    src = tmp_path / "t.cpp"
    src.write_text("#include \"graph/types.h\"\nint main() { return ge::DT_FLOAT; }\n")
    out = subprocess.run([gxx.path, *HOST_FLAGS, "-Winvalid-pch", "-H", "-I", str(INCLUDE_DIR), "-include", str(stub),
                          "-fsyntax-only", str(src)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert f"! {stub}.gch" in out.stderr            # -H marks a used precompiled header with '!'
    # An unusable .gch is read as text: same result, no error.
    (stub.parent / f"{pch.STUB}.gch").write_bytes(b"not a precompiled header")
    out = subprocess.run([gxx.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), "-include", str(stub), "-fsyntax-only",
                          str(src)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_errors_still_point_at_the_candidates_file_and_line(sim, make_project):
    host = (Path(__file__).resolve().parents[2] / "benchmark_cases/level1/math/add_custom/solution/op_host/"
            "add_custom.cpp").read_text()
    tiling = (Path(__file__).resolve().parents[2] / "benchmark_cases/level1/math/add_custom/solution/op_host/"
              "add_custom_tiling.h").read_text()
    broken = host.replace("context->SetBlockDim(useCores);", "context->SetBlockDimm(useCores);")
    line = broken.splitlines().index(next(ln for ln in broken.splitlines() if "SetBlockDimm" in ln)) + 1
    kernel = ('#include "kernel_operator.h"\n'
              'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, '
              'GM_ADDR w, GM_ADDR t) {\n'
              '  AscendC::LocalTensor<half> h;\n  AscendC::Duplicate(h, 0.0f, 8);\n}\n')
    params = [("x", "input", "REQUIRED", "float16"), ("y", "input", "REQUIRED", "float16"),
              ("z", "output", "REQUIRED", "float16")]
    build = sim.build(make_project("AddCustom", "add_custom", broken, kernel, params,
                                   {"op_host/add_custom_tiling.h": tiling}))
    assert not build.ok
    assert f"op_host/add_custom.cpp:{line}:" in build.diagnostics and "SetBlockDimm" in build.diagnostics
    assert "pch" not in build.diagnostics and str(INCLUDE_DIR) not in build.diagnostics
    build = sim.build(make_project("AddCustom", "add_custom", host, kernel, params,
                                   {"op_host/add_custom_tiling.h": tiling}))
    assert not build.ok
    assert "op_kernel/add_custom.cpp:4:" in build.diagnostics and "Duplicate" in build.diagnostics


def _add_custom(variant: str) -> tuple[dict[str, str], list[tuple[str, str, str, str]]]:
    root = Path(__file__).resolve().parents[2] / "benchmark_cases/level1/math/add_custom/solution"
    files = {str(p.relative_to(root)): p.read_text() for p in root.rglob("*") if p.is_file()}
    kernel = "op_kernel/add_custom.cpp"
    files[kernel] = f"{variant}\n{files[kernel]}"
    params = [("x", "input", "REQUIRED", "float16"), ("y", "input", "REQUIRED", "float16"),
              ("z", "output", "REQUIRED", "float16")]
    return files, params


def test_a_precompiled_header_removed_during_the_build_is_infrastructure(sim, make_project, monkeypatch, tmp_path):
    """`npukb cache clear` (or a user's rm) while a build runs: the compile that was handed the PCH
    fails for our reasons, never the candidate's (and the failure is not cached)."""
    from npukernelbench.infrastructure import InfrastructureError
    from npukernelbench.toolchains.ascendc_sim import builder

    real = builder._pch_args
    gone = tmp_path / "removed-pch"

    def removed(project, compiler, cache, flags, folder_name):
        args, readable = real(project, compiler, cache, flags, folder_name)
        return (["-include", str(gone / pch.STUB)], (gone,)) if folder_name == "op_kernel" and args else \
            (args, readable)

    files, params = _add_custom("// removed pch")
    project = make_project("AddCustom", "add_custom", files.pop("op_host/add_custom.cpp"),
                           files.pop("op_kernel/add_custom.cpp"), params, files)
    monkeypatch.setattr(builder, "_pch_args", removed)
    with pytest.raises(InfrastructureError, match="precompiled header .* was removed during the build"):
        sim.build(project)
    monkeypatch.undo()
    assert sim.build(project).ok              # not cached as a failure: the same project builds now


def test_a_candidate_including_the_stub_name_is_its_own_build_error(sim, make_project):
    """The same compiler message written by the candidate (an #include of a file it does not have) is
    a build error: the check is whether our PCH still exists, not what the log says."""
    files, params = _add_custom(f'#include "{pch.STUB}"')
    build = sim.build(make_project("AddCustom", "add_custom", files.pop("op_host/add_custom.cpp"),
                                   files.pop("op_kernel/add_custom.cpp"), params, files))
    assert not build.ok and f"{pch.STUB}: No such file or directory" in build.diagnostics

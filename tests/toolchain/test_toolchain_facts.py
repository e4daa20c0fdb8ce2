"""The toolchain owns its facts: the headers a candidate may include and the hardware the prompt
describes come from ``Toolchain.include_allowlist()`` / ``Toolchain.hardware()``, and the simulator's
figures are the ones its C++ headers use."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from npukernelbench.checks import check_sources
from npukernelbench.prompt import PromptOptions, build_messages
from npukernelbench.spec import load_spec
from npukernelbench.toolchains import get_toolchain
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.base import Preprocessing, Toolchain

PRE = get_toolchain("ascendc-sim").preprocessing()

ADD_CUSTOM = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"


def test_simulator_hardware_matches_its_platform_header() -> None:
    sim = get_toolchain("ascendc-sim")
    assert isinstance(sim, Toolchain)
    hw = sim.hardware()
    platform = (INCLUDE_DIR / "tiling" / "platform" / "platform_ascendc.h").read_text()
    sizes = dict(re.findall(r"case CoreMemType::(\w+): size = (\d+);", platform))
    assert (hw.ub_bytes, hw.l1_bytes, hw.l0a_bytes, hw.l0b_bytes, hw.l0c_bytes) == tuple(
        int(sizes[k]) for k in ("UB", "L1", "L0_A", "L0_B", "L0_C"))
    assert (hw.soc, hw.vector_cores, hw.cube_cores) == ("Ascend910B3", 40, 20)   # the default profile
    assert "npukb::soc_info().soc_version" in platform     # the SoC version follows the run's profile


def test_simulator_allowlist_is_its_public_headers() -> None:
    headers = get_toolchain("ascendc-sim").include_allowlist()
    for name in ("kernel_operator.h", "kernel_operator_intf.h", "lib/matmul_intf.h", "register/op_def_registry.h",
                 "tiling/platform/platform_ascendc.h"):
        assert name in headers
    assert not any(h.startswith("npukb_sim/") for h in headers)
    project = {"op_kernel/k.cpp": "#include \"kernel_operator_intf.h\"\n#include \"lib/matmul_intf.h\"\nint a;\n"}
    assert check_sources(project, headers, PRE) is None
    internal = check_sources({"op_kernel/k.cpp": "#include \"npukb_sim/runtime.h\"\nint a;\n"}, headers, PRE)
    assert internal is not None and internal.rule == "include-not-allowed"


def test_checks_read_the_toolchains_allowlist() -> None:
    """A header the system has (and the confinement denies) is allowed only when the toolchain ships
    one of that name: the checks read the list they are given."""
    project = {"op_host/x.cpp": "#include <unistd.h>\nint a;\n"}
    assert check_sources(project, frozenset(), PRE).rule == "include-not-allowed"
    assert check_sources(project, frozenset({"unistd.h"}), PRE) is None
    # names found nowhere are left to the build, whatever the list (the public answers include many
    # CANN headers this toolchain does not ship)
    assert check_sources({"op_host/x.cpp": "#include \"graph/some_cann_header.h\"\nint a;\n"}, frozenset(), PRE) is None


def test_prompt_describes_the_given_hardware() -> None:
    spec = load_spec(ADD_CUSTOM)
    sim = get_toolchain("ascendc-sim").hardware()
    default = build_messages(spec, PromptOptions(project_level=True))[1]["content"]
    assert sim.describe() in default
    other = replace(sim, soc="Ascend910B4", vector_cores=40, ub_bytes=1000)
    text = build_messages(spec, PromptOptions(project_level=True, hardware=other))[1]["content"]
    assert "Ascend910B4" in text and "(AIV): 40" in text and "1,000 bytes" in text and sim.describe() not in text


def test_static_checks_preprocess_with_the_toolchains_own_headers(tmp_path: Path) -> None:
    """The macro-expanded pass reads the code as the given toolchain's preprocessor does: a macro of a
    header only that toolchain ships is expanded with its include directories, not the simulator's."""
    include = tmp_path / "include"
    include.mkdir()
    (include / "vendor_api.h").write_text("#define VENDOR_RUN(cmd) sys##tem(cmd)\n")
    project = {"op_host/x.cpp": '#include "vendor_api.h"\nvoid f() { VENDOR_RUN("ls"); }\n'}
    headers = frozenset({"vendor_api.h"})
    assert check_sources(project, headers, PRE) is None                # not found there: left to the build
    own = Preprocessing(compiler=PRE.compiler, include_dirs=(include,))
    finding = check_sources(project, headers, own)
    assert finding is not None and "system" in finding.detail and "after macro expansion" in finding.detail
    assert check_sources(project, headers, Preprocessing(compiler=None, include_dirs=(include,))) is None

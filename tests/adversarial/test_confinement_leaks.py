"""When an attack slips past the static checks, confinement still holds. These tests bypass the
checks on purpose (calling the toolchain and the sandbox directly) and assert no secret leaks."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from npukernelbench.confinement import BUBBLEWRAP, active_confinement
from npukernelbench.layouts.case_toml.checker import project_for
from npukernelbench.sandbox import Limits, Request, run_confined

PASSWD_MARK = "root:x:0:0"
KERNEL = "op_kernel/add_custom.cpp"

_ACTIVE = active_confinement()
needs_bwrap = pytest.mark.skipif(
    _ACTIVE.level != BUBBLEWRAP and not _ACTIVE.boundary.landlock,
    reason="file-system confinement needs Landlock (Linux >= 5.13) or bubblewrap (apt-get install bubblewrap); "
           "without either the static checks are the only guard against reading host files (docs/security.md)")


def _has_passwd() -> bool:
    try:
        return PASSWD_MARK in Path("/etc/passwd").read_text()
    except OSError:
        return False


@needs_bwrap
def test_host_file_include_does_not_reach_diagnostics(add_spec, solution, toolchain) -> None:
    assert _has_passwd(), "this host has no root line in /etc/passwd to leak; the test would prove nothing"
    files = {**solution, KERNEL: '#include "../../../../../../../../../../../../etc/passwd"\n' + solution[KERNEL]}
    dtypes = {d.name: "float16" for d in (*add_spec.inputs, *add_spec.outputs)}
    build = toolchain.build(project_for(add_spec, files, dtypes))
    assert not build.ok
    assert PASSWD_MARK not in build.diagnostics and PASSWD_MARK not in json.dumps(str(build))


@needs_bwrap
def test_host_program_reading_secrets_sees_nothing(tmp_path: Path) -> None:
    """What a tiling function with file access (had it evaded the checks) would get at run time."""
    src = tmp_path / "steal.cpp"
    repo = Path(__file__).resolve().parents[2]
    src.write_text(
        "#include <cstdio>\n"
        "static void dump(const char* p) { FILE* f = std::fopen(p, \"r\"); if (!f) { std::printf(\"no %s\\n\", p);"
        " return; } char b[4096]; size_t n = std::fread(b, 1, sizeof b, f); std::fwrite(b, 1, n, stdout);"
        " std::fclose(f); }\n"
        f"int main() {{ dump(\"/etc/passwd\"); dump(\"{repo}/pyproject.toml\");"
        f" dump(\"{repo}/benchmark_cases/level1/math/add_custom/reference.py\"); dump(\"/root/.bashrc\"); }}\n")
    subprocess.run(["g++", "-O1", str(src), "-o", str(tmp_path / "steal")], check=True)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    out = run_confined(Request(argv=[str(tmp_path / "steal")], cwd=scratch, limits=Limits(wall_s=10)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("no /") == 4, out.stdout
    assert PASSWD_MARK not in out.stdout and "[project]" not in out.stdout

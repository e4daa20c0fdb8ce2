"""A toolchain whose builds fail in our own machinery (tests of the rewards' "no outcome"): the
ascendc-sim toolchain, except that ``build`` raises InfrastructureError, as a crashing compiler or a
full scratch disk does (tests/toolchain/test_infrastructure_failures.py injects those for real)."""

from __future__ import annotations

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain


class BrokenBuildToolchain(AscendCSimToolchain):
    def build(self, project):  # noqa: ANN001, ANN201
        raise InfrastructureError("the compiler was killed by SIGKILL (injected by the test)")

"""A toolchain whose builds fail in our own machinery (tests of the rewards' "no outcome"): the
ascendc-sim toolchain, except that ``build`` raises InfrastructureError, as a crashing compiler or a
full scratch disk does (tests/toolchain/test_infrastructure_failures.py injects those for real)."""

from __future__ import annotations

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain


class BrokenBuildToolchain(AscendCSimToolchain):
    def build(self, project):  # noqa: ANN001, ANN201
        raise InfrastructureError("the compiler was killed by SIGKILL (injected by the test)")


class MarkedFailuresToolchain(AscendCSimToolchain):
    """The ascendc-sim toolchain, except for sources carrying a marker, whose build fails in our own
    machinery: ``NPUKB_TEST_INFRA`` raises InfrastructureError, ``NPUKB_TEST_DIE`` ends the evaluating
    process (a worker killed by the OOM killer), ``NPUKB_TEST_HANG`` hangs it (only an outer timeout
    ends it; the candidate's own code is bounded by the sandbox's limits)."""

    def build(self, project):  # noqa: ANN001, ANN201
        import os
        import time

        text = "".join(project.files.values())
        if "NPUKB_TEST_INFRA" in text:
            raise InfrastructureError("the compiler was killed by SIGKILL (injected by the test)")
        if "NPUKB_TEST_DIE" in text:
            os._exit(137)
        if "NPUKB_TEST_HANG" in text:
            time.sleep(3600)
        return super().build(project)

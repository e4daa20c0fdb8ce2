"""What the layouts that bind the candidate's operator through its host code share (``upstream`` and
``mkb``): their checker, named as a ``module:Class`` string and imported only when a check is made, and
the toolchains they can be checked with (those that describe host code, ``HostDescriber``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from npukernelbench.checker import BaselineCache, Checker, EvalOptions
    from npukernelbench.spec import TaskSpec
    from npukernelbench.toolchains.base import Toolchain


class HostBoundLayout:
    """A base of such layouts: ``checker`` and ``unsupported`` of the ``Layout`` protocol."""

    checker_target: ClassVar[str]      # ``module:Class`` of the layout's Checker subclass
    described_as: ClassVar[str]        # the layout as ``unsupported`` names it ("upstream NPUKernelBench")

    def checker(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                options: EvalOptions | None = None, baseline: BaselineCache | None = None) -> Checker:
        from npukernelbench.registry import import_target

        return import_target(self.checker_target)(spec, toolchain, files, options, baseline)

    def unsupported(self, toolchain: Toolchain) -> str | None:
        from npukernelbench.toolchains.base import HostDescriber

        if isinstance(toolchain, HostDescriber):
            return None
        return (f"toolchain {toolchain.name!r} cannot describe host code, which the {self.described_as} layout "
                "needs to bind the operator (use ascendc-sim)")

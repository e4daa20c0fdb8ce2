"""Toolchain registry: names map to ``module:Class`` strings imported only when chosen. Installed
packages add theirs under the entry-point group ``npukernelbench.toolchains``; ``module:Class`` names a
toolchain directly (see ``npukernelbench.registry``)."""

from __future__ import annotations

from npukernelbench.registry import Registry, RegistryError
from npukernelbench.toolchains.base import Toolchain

TOOLCHAINS = Registry("toolchain", "npukernelbench.toolchains", {
    "ascendc-sim": "npukernelbench.toolchains.ascendc_sim:AscendCSimToolchain",
})


def get_toolchain(name: str, **options: object) -> Toolchain:
    """A toolchain instance: a registered name, an installed plug-in's name, or ``module:Class``."""
    try:
        cls = TOOLCHAINS.load(name)
    except ImportError as exc:
        raise RegistryError(f"cannot load toolchain {name!r}: {exc}") from exc
    return cls(**options)

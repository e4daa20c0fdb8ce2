"""Toolchain registry: names map to ``module:Class`` strings imported only when chosen. Installed
packages add theirs under the entry-point group ``npukernelbench.toolchains``; ``module:Class`` names a
toolchain directly (see ``npukernelbench.registry``)."""

from __future__ import annotations

from npukernelbench.registry import Registry, RegistryError
from npukernelbench.toolchains.base import Toolchain

TOOLCHAINS = Registry("toolchain", "npukernelbench.toolchains", {
    "ascendc-sim": "npukernelbench.toolchains.ascendc_sim:AscendCSimToolchain",
})


def toolchain_class(name: str) -> type:
    """The class of a registered name, an installed plug-in's name or ``module:Class``; RegistryError
    (a ValueError, one line) when there is none or it cannot be imported."""
    try:
        return TOOLCHAINS.load(name)
    except ImportError as exc:
        raise RegistryError(f"cannot load toolchain {name!r}: {exc}") from exc


def get_toolchain(name: str, **options: object) -> Toolchain:
    """A toolchain instance: a registered name, an installed plug-in's name, or ``module:Class``."""
    return toolchain_class(name)(**options)

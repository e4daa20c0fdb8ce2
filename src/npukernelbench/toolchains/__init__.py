"""Toolchain registry: names map to ``module:Class`` strings imported only when chosen."""

from __future__ import annotations

import importlib

from npukernelbench.toolchains.base import Toolchain

TOOLCHAINS: dict[str, str] = {
    "ascendc-sim": "npukernelbench.toolchains.ascendc_sim:AscendCSimToolchain",
}


def get_toolchain(name: str, **options: object) -> Toolchain:
    try:
        target = TOOLCHAINS[name]
    except KeyError:
        raise ValueError(f"unknown toolchain {name!r}; choose one of: {', '.join(TOOLCHAINS)}") from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(**options)

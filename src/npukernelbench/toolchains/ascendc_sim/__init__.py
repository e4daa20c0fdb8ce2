"""The ``ascendc-sim`` toolchain: clean-room AscendC CPU simulator (headers, launcher, adapter)."""

from npukernelbench.toolchains.ascendc_sim.toolchain import AscendCSimToolchain

__all__ = ["AscendCSimToolchain"]

"""What a toolchain says about the device it builds for (``Toolchain.hardware()``): the figures the
project-level prompt gives the model (SoC, core counts, on-chip buffer sizes)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hardware:
    soc: str
    vector_cores: int
    cube_cores: int
    ub_bytes: int                # Unified Buffer per AI vector core
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int

    def describe(self) -> str:
        """The hardware section of a project-level prompt."""
        return "\n".join((
            f"- SoC: {self.soc}",
            f"- AI Vector cores (AIV): {self.vector_cores}; AI Cube cores (AIC): {self.cube_cores}",
            f"- Unified Buffer (UB) per vector core: {self.ub_bytes:,} bytes; data moves in 32-byte blocks",
            f"- L1 buffer: {self.l1_bytes:,} bytes; L0A / L0B / L0C: {self.l0a_bytes:,} / {self.l0b_bytes:,} "
            f"/ {self.l0c_bytes:,} bytes",
            "- Vector instructions process 256 bytes per repeat, at most 255 repeats per instruction",
        ))

"""The SoC profiles a run can simulate (``--npukb-soc``): one table, the only source of the figures.

The simulator's runtime takes a profile's names and core counts from the run's request at run time
(``soc`` line, ``toolchains/ascendc_sim/launch_files.py``), so one build serves every profile. The
on-chip memory sizes are compile-time constants of the simulator's headers
(``npukb_sim/runtime.h``); every profile here has the same, and ``platform.simulated_hardware``
refuses a profile whose memories differ from the headers'. docs/simulator.md ("SoC profiles") lists
the figures with their sources (``soc_table_markdown``; a test keeps the page equal).
"""

from __future__ import annotations

from dataclasses import dataclass

from npukernelbench.hardware import Hardware

# The memory figures every Atlas A2 / A3 (DAV_2201) AI core has (docs/cost-model.md, "Hardware figures").
_UB = 196_608
_L1 = 524_288
_L0A = 65_536
_L0B = 65_536
_L0C = 131_072

# platform_ascendc::SocVersion values (tiling/platform/platform_ascendc.h).
SOC_VERSION_VALUES = {"ASCEND910B": 1, "ASCEND910_93": 2}


@dataclass(frozen=True)
class SocProfile:
    name: str                  # SoC_version, what --npukb-soc names
    short_name: str            # Short_SoC_version
    soc_version: str           # platform_ascendc::SocVersion member GetSocVersion() returns
    cube_cores: int            # AI cores (one AI cube core and two AI vector cores each)
    vector_cores: int
    source: str                # where the core counts come from (docs/simulator.md)
    ub_bytes: int = _UB
    l1_bytes: int = _L1
    l0a_bytes: int = _L0A
    l0b_bytes: int = _L0B
    l0c_bytes: int = _L0C

    def hardware(self) -> Hardware:
        """The profile as the project-level prompt describes it."""
        return Hardware(soc=self.name, vector_cores=self.vector_cores, cube_cores=self.cube_cores,
                        ub_bytes=self.ub_bytes, l1_bytes=self.l1_bytes, l0a_bytes=self.l0a_bytes,
                        l0b_bytes=self.l0b_bytes, l0c_bytes=self.l0c_bytes)

    def request_line(self) -> str:
        """The profile as the simulator's request carries it (runtime/launcher_io.cpp)."""
        return (f"soc {self.name} {self.short_name} {SOC_VERSION_VALUES[self.soc_version]} {self.cube_cores} "
                f"{self.vector_cores}")


_A2 = ("Ascend910B", "ASCEND910B")
PROFILES: dict[str, SocProfile] = {p.name: p for p in (
    SocProfile("Ascend910B2", *_A2, cube_cores=24, vector_cores=48,
               source="public 910B2 figures: 24 AI cores (24 cube + 48 vector), cube clock 1.8 GHz, 64 GiB HBM, "
                      "192 MiB L2"),
    SocProfile("Ascend910B3", *_A2, cube_cores=20, vector_cores=40,
               source="the part the public NPUKernelBench expert answers were written for; 20 AI cores "
                      "(20 cube + 40 vector)"),
    SocProfile("Ascend910B4", *_A2, cube_cores=20, vector_cores=40,
               source="npu-smi reports of 910B4 machines (20 AI cores) in public issue threads; 32 GiB HBM "
                      "(HBM does not change the simulation)"),
    SocProfile("Ascend910_9392", "Ascend910_93", "ASCEND910_93", cube_cores=24, vector_cores=48,
               source="upstream NPUKernelBench's generation prompt: SoC_version=Ascend910_9392, "
                      "Short_SoC_version=Ascend910_93, ai_core_cnt=24, cube_core_cnt=24, vector_core_cnt=48, "
                      "ub_size=196608"),
)}
DEFAULT_SOC = "Ascend910B3"     # our case format's SoC; a layout may name another (Layout.default_soc)


class UnknownSoc(ValueError):
    """A name that is not in :data:`PROFILES` (one line, listing the known names)."""


def soc_profile(name: str | None = None) -> SocProfile:
    """The profile called ``name`` (None: :data:`DEFAULT_SOC`)."""
    chosen = DEFAULT_SOC if name is None else name
    try:
        return PROFILES[chosen]
    except KeyError:
        raise UnknownSoc(f"unknown SoC profile {chosen!r}: choose one of {', '.join(PROFILES)}") from None


def soc_table_markdown() -> str:
    """The profile table of docs/simulator.md (regenerate with ``python -m npukernelbench.soc_profiles``)."""
    rows = ["| `--npukb-soc` | Short_SoC_version | AIC | AIV | UB / L1 / L0A / L0B / L0C bytes "
            "| source of the core counts |",
            "|---|---|---|---|---|---|"]
    for p in PROFILES.values():
        default = " (default)" if p.name == DEFAULT_SOC else ""
        rows.append(f"| `{p.name}`{default} | {p.short_name} | {p.cube_cores} | {p.vector_cores} | "
                    f"{p.ub_bytes:,} / {p.l1_bytes:,} / {p.l0a_bytes:,} / {p.l0b_bytes:,} / {p.l0c_bytes:,} | "
                    f"{p.source} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(soc_table_markdown(), end="")

"""The run's data seed: the one number every case's input data derive from (with the case and its
seed index), drawn fresh per run unless given, so that no kernel can know its inputs in advance."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from npukernelbench.store import RunDir

HEADER_KEY = "data_seed"          # where the run header (run.json) keeps it


def fresh_data_seed() -> int:
    """A data seed nobody can predict (32 bits from os.urandom): what a run uses unless it is given one."""
    return int.from_bytes(os.urandom(4), "little")


def recorded_data_seed(run: RunDir) -> int | None:
    """The data seed the header of ``run`` records, or None (no header, an unreadable one, or a run from
    before data seeds): what ``--npukb-resume`` goes on with when no seed is given."""
    try:
        seed = run.header().get(HEADER_KEY)
    except (OSError, ValueError, AttributeError):
        return None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def turn_data_seed(seed: int, turn: int) -> int:
    """The data seed of multi-turn repair turn ``turn`` (1: the run's ``seed`` itself): another input
    draw per turn, so that values a failure report showed (the expected output of a one-element
    reduction, say) cannot be written into the next answer; derived, not drawn, so that a resumed run
    checks a turn on the same data."""
    if turn == 1:
        return seed
    import hashlib

    digest = hashlib.sha256(f"npukb-turn:{seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


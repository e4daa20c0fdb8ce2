"""The simulated run's time limit: the base limit plus time for the launch's tensors (an in-place
output counted once), CPU time as the verdict's limit and a wall-clock limit with slack for load."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim import run_limit as rl
from npukernelbench.toolchains.base import Launch, TensorArg

GIB = 2**30


def _launch(inputs, outputs, timeout_s: float = 60.0) -> Launch:
    return Launch(inputs=tuple(inputs), outputs=tuple(outputs), attrs={}, timeout_s=timeout_s)


def test_data_bytes_counts_inputs_outputs_and_tensor_lists() -> None:
    launch = _launch([TensorArg("x", "float32", np.zeros((4, 8), np.float32)),
                      TensorArg("xs", "float16", [np.zeros(3, np.float16), np.zeros(5, np.float16)]),
                      TensorArg("opt", "float32", None)],
                     [TensorArg("y", "bfloat16", shape=(16, 2)), TensorArg("ys", "int32", shape=[(2,), (3,)])])
    assert rl.data_bytes(launch) == 4 * 8 * 4 + (3 + 5) * 2 + 16 * 2 * 2 + (2 + 3) * 4


def test_an_in_place_output_is_its_input_s_buffer() -> None:
    x = np.zeros(1000, np.float32)
    launch = _launch([TensorArg("x", "float32", x)], [TensorArg("x_out", "float32", shape=(1000,), alias="x")])
    assert rl.data_bytes(launch) == 4000


def test_a_small_launch_keeps_the_base_limit() -> None:
    limit = rl.run_limit(_launch([TensorArg("x", "float32", np.zeros(1024, np.float32))], [], timeout_s=60.0))
    assert limit.cpu_s == 60.0 and limit.extra_s == 0.0        # 4 KiB: whole seconds, rounded
    assert limit.wall_s == rl.WALL_FACTOR * 60.0 and limit.describe() == "60 s of CPU time"


def test_a_gib_of_tensors_adds_its_seconds() -> None:
    # a 1 GiB output declared by shape (no array is allocated for it)
    limit = rl.run_limit(_launch([], [TensorArg("y", "bfloat16", shape=(128, 2048, 2048))], timeout_s=60.0))
    assert limit.data_bytes == GIB
    assert limit.extra_s == rl.SECONDS_PER_GIB and limit.cpu_s == 60.0 + rl.SECONDS_PER_GIB
    text = limit.describe()
    assert text.startswith(f"{60 + rl.SECONDS_PER_GIB:g} s of CPU time (60 s + ") and "1.00 GiB of tensors" in text


def test_a_limit_without_extra_says_only_the_base() -> None:
    assert rl.RunLimit(base_s=5.0, data_bytes=0, extra_s=0.0).describe() == "5 s of CPU time"


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan")])
def test_a_limit_that_is_not_positive_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="must be > 0"):
        rl.run_limit(_launch([], [], timeout_s=bad))

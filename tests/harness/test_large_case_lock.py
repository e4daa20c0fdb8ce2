"""Large public-task rows take turns on one machine-wide lock; small rows never wait."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

from npukernelbench.layouts.upstream.large_case_lock import LARGE_INPUT_BYTES, large_case_turn


def test_a_second_large_row_waits_for_the_first(tmp_path) -> None:
    held, order = threading.Event(), []

    def first() -> None:
        with large_case_turn(LARGE_INPUT_BYTES, tmp_path):
            held.set()
            time.sleep(0.5)
            order.append("first done")

    thread = threading.Thread(target=first)
    thread.start()
    held.wait(5)
    with large_case_turn(LARGE_INPUT_BYTES + 1, tmp_path):
        order.append("second")
    thread.join()
    assert order == ["first done", "second"]


def test_small_rows_pass_while_a_large_one_holds_the_turn(tmp_path) -> None:
    with large_case_turn(LARGE_INPUT_BYTES, tmp_path) as waited:
        assert waited is True
        start = time.monotonic()
        with large_case_turn(LARGE_INPUT_BYTES - 1, tmp_path) as small:
            assert small is False
        assert time.monotonic() - start < 0.5


def test_a_killed_holder_releases_the_turn(tmp_path) -> None:
    code = ("import sys, time; from pathlib import Path; "
            "from npukernelbench.layouts.upstream.large_case_lock import large_case_turn, LARGE_INPUT_BYTES\n"
            "with large_case_turn(LARGE_INPUT_BYTES, Path(sys.argv[1])):\n"
            "    print('held', flush=True); time.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        holder.kill()
        holder.wait(10)
        start = time.monotonic()
        with large_case_turn(LARGE_INPUT_BYTES, tmp_path):
            pass
        assert time.monotonic() - start < 5
    finally:
        holder.kill()

"""The closed loop, short: one task, a tiny model that starts from noise, SFT on the expert solution
until greedy decoding reproduces it, candidates sampled hot and graded into pairs, DPO, measured at
every stage through the benchmark's generators and pipeline (``benchmarks/closed_loop.py`` is the long
version with three tasks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen_lm.closed_loop import LoopSettings, run_loop

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases"


@pytest.mark.slow
def test_short_closed_loop(tmp_path):
    settings = LoopSettings(cases=(CASES,), out=tmp_path / "loop", tasks=("level1/math/add_custom",),
                            max_token_chars=32, sft_steps=60, samples=4, dpo_steps=4, max_tokens=700)
    figures = run_loop(settings, log=lambda line: None)
    assert (figures["cr_before"], figures["er_before"]) == (0.0, 0.0)         # noise writes no project
    assert figures["er_after_sft"] == 1.0 and figures["cr_after_sft"] == 1.0  # the expert solution, reproduced
    assert figures["pairs"] >= 1
    assert figures["dpo_reward_accuracy"] is not None and figures["dpo_reward_accuracy"] > 0.5
    assert figures["er_after_dpo"] >= figures["er_after_sft"]
    assert (tmp_path / "loop" / "measure-after-sft" / "results.jsonl").is_file()
    assert (tmp_path / "loop" / "closed_loop.json").is_file()


def test_temperature_search_bisects_between_too_cold_and_too_hot():
    from kernelgen_lm.closed_loop import TemperatureSearch

    search = TemperatureSearch()
    assert search.next(1.0, all_pass=True) == 1.5                   # all identical and passing: hotter
    assert search.next(1.5, all_pass=True) == 2.25
    assert search.next(2.25, all_pass=False) == pytest.approx((1.5 * 2.25) ** 0.5)   # noise: between the two
    assert search.next(1.837, all_pass=False) == pytest.approx((1.5 * 1.837) ** 0.5)
    cold = TemperatureSearch()
    assert cold.next(1.0, all_pass=False) == pytest.approx(1 / 1.5)   # nothing passes, nothing known: colder

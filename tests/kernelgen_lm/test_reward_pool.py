"""The Ray reward pool (kernelgen_lm.reward_pool) on a local Ray cluster that the test starts on
127.0.0.1 (``ray start --head`` in a subprocess, two CPUs, stopped after): the pool's rewards are the
pipeline's shaped verdicts and agree with verl's compute_score on the same inputs; failures of our
machinery (an infrastructure error, a worker that dies, a worker that hangs) give None, never a number,
and the pool keeps working after them (Ray restarts the actor)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the Ray reward pool needs Ray: pip install -e .[ray]")

from kernelgen_lm.grpo import ExecutionReward  # noqa: E402
from kernelgen_lm.reward_pool import RayRewardPool  # noqa: E402
from kernelgen_lm.rewards import RewardShaping, compute_score  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmark_cases"
ADD_CUSTOM = CASES / "level1" / "math" / "add_custom"
TASK = "level1/math/add_custom"
MARKED = "infra_toolchain:MarkedFailuresToolchain"      # tests/kernelgen_lm/infra_toolchain.py


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_address():
    """A one-node Ray cluster (head on 127.0.0.1, 2 CPUs) whose workers import this checkout and the
    test toolchain; ended by signalling the ``ray start --block`` process that owns it."""
    ray_bin = shutil.which("ray", path=str(Path(sys.executable).parent))
    if ray_bin is None:
        pytest.skip("the ray command is not installed next to this Python")
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="npukb-ray-", dir="/tmp")     # short: Ray's socket paths are limited
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0",
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(Path(__file__).parent),
                                           os.environ.get("PYTHONPATH", "")]))
    log = Path(temp) / "head.log"
    with log.open("w") as out:
        head = subprocess.Popen([ray_bin, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
                                 "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats",
                                 "--temp-dir", temp, "--block"], stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 90
        while "Ray runtime started" not in log.read_text() and head.poll() is None and time.monotonic() < deadline:
            time.sleep(0.3)
        if "Ray runtime started" not in log.read_text():
            pytest.fail(f"the Ray head did not start:\n{log.read_text()[-2000:]}")
        yield f"127.0.0.1:{port}"
    finally:
        import ray

        ray.shutdown()
        head.terminate()
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def test_pool_rewards_agree_with_verl_and_machinery_failures_are_none(ray_address):
    from npukernelbench.cases import load_case
    from npukernelbench.extract import render_files

    expert = render_files(dict(load_case(ADD_CUSTOM).solution))
    wrong = expert.replace("Add(zLocal", "Sub(zLocal", 1)              # builds, runs, computes x - y
    misspelt = expert.replace("Add(zLocal", "Addd(zLocal", 1)          # does not build

    def marked(marker: str) -> str:
        return expert.replace("Add(zLocal", f"Add(/* {marker} */ zLocal", 1)

    assert len({expert, wrong, misspelt}) == 3
    texts = [expert, wrong, misspelt, "I cannot write this kernel.", marked("NPUKB_TEST_INFRA"),
             marked("NPUKB_TEST_DIE")]
    # verl's function, in this process (it also fills the build cache the Ray workers share)
    verl = [compute_score("npukb", text, f"{CASES}::{TASK}") for text in texts[:4]]
    assert verl == [1.0, 0.25, -0.5, -1.0]
    lines: list[str] = []
    with RayRewardPool(ray_address, workers=2, cases=[ADD_CUSTOM], toolchain=MARKED,
                       log=lines.append) as pool:
        assert pool.tasks == {TASK}
        rewards = pool.score(texts, [TASK] * len(texts))
        causes = [s.outcome for s in pool.last]
        assert rewards == [1.0, 0.25, -0.5, -1.0, None, None], causes
        assert "SIGKILL (injected by the test)" in causes[4]
        assert "the Ray worker failed" in causes[5]
        # a worker stuck in our machinery: killed after the pool's timeout, restarted by Ray
        pool.timeout = 3
        assert pool.score([marked("NPUKB_TEST_HANG"), "no code"], [TASK] * 2) == [None, -1.0]
        assert "took over 3 s" in pool.last[0].outcome and "killed and restarted" in pool.last[0].outcome
        assert [line.split(": ")[1] for line in lines] == [f"{TASK}[5]", f"{TASK}[0]"]
        # after a death and a kill, both actors serve again
        assert pool.score(["no code", "no code"], [TASK] * 2) == [-1.0, -1.0], pool.last
        # every batch is checked on a fresh input draw: a policy cannot learn one draw's outputs
        first_seed = re.search(r"data seed (\d+)", causes[1].message).group(1)
        assert pool.score([wrong], [TASK]) == [0.25]
        assert re.search(r"data seed (\d+)", pool.last[0].outcome.message).group(1) != first_seed
        # kernelgen-lm grpo's reward function with reward_backend: ray scores through the pool
        reward = ExecutionReward({TASK: load_case(ADD_CUSTOM)}, RewardShaping(), pool=pool, log=lines.append)
        assert reward([[]] * 2, ["no code", marked("NPUKB_TEST_INFRA")], task=[TASK] * 2) == [-1.0, None]
        assert reward.verdicts == {"parse_error": 1, "no_outcome": 1}
        with pytest.raises(ValueError, match="not one of the pool's cases"):
            pool.score(["x"], ["level1/nope"])
        with pytest.raises(ValueError, match="2 completions but 1 task ids"):
            pool.score(["x", "y"], [TASK])
    assert rewards[:4] == verl                  # the pool and verl agree on the same inputs


def test_pool_start_failures_and_a_worker_dead_for_good(ray_address):
    from npukernelbench.cases import load_case
    from npukernelbench.extract import render_files

    with pytest.raises(RuntimeError, match="workers did not start: .*no benchmark cases under"):
        RayRewardPool(ray_address, workers=1, cases=[ROOT / "docs"], start_timeout=60)
    with pytest.raises(ValueError, match="workers must be at least 1"):
        RayRewardPool(ray_address, workers=0, cases=[ADD_CUSTOM])
    dies = render_files(dict(load_case(ADD_CUSTOM).solution)).replace("Add(zLocal", "Add(/* NPUKB_TEST_DIE */ zLocal")
    lines: list[str] = []
    with RayRewardPool(ray_address, workers=1, cases=[ADD_CUSTOM], toolchain=MARKED, max_restarts=0,
                       log=lines.append) as pool:
        assert pool.score([dies, "no code"], [TASK] * 2) == [None, None], pool.last
        assert any("gone for good" in line for line in lines), lines
        assert pool.actors == []
        assert pool.score(["no code"], [TASK]) == [None]
        assert "no live Ray worker was left" in pool.last[0].outcome


def test_grpo_command_with_the_ray_backend(tiny_model, tmp_path, ray_address, capsys):
    """``kernelgen-lm grpo`` with ``reward_backend: ray``: the step's completions are scored by two
    actors on the cluster (noise: parse errors), the model is saved, the actors are gone after."""
    import json

    import yaml

    from kernelgen_lm.cli import main

    out = tmp_path / "grpo"
    config = tmp_path / "grpo.yaml"
    config.write_text(yaml.safe_dump({
        "model": str(tiny_model), "output_dir": str(out), "cases": [str(ADD_CUSTOM)], "include_eval_tasks": True,
        "device": "cpu", "max_steps": 1, "num_generations": 2, "global_batch_size": 2, "per_device_batch_size": 2,
        "max_completion_length": 8, "save_steps": 10, "cpu_threads": 1, "report_to": ["none"],
        "reward_backend": "ray", "ray_address": ray_address, "jobs": 2}))
    assert main(["grpo", str(config)]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out.strip().splitlines()[-1])
    assert printed["evaluations"] == 2 and printed["verdicts"] == {"parse_error": 2}
    assert f"2 evaluation worker(s) on Ray ({ray_address})" in captured.err
    assert (out / "model.safetensors").is_file()

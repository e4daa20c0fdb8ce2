"""``--npukb-shard K/N`` and ``npukb report --out DIR SHARD_DIR...``: three shards of a run, merged,
give the unsharded run's summary; a sample in two shards, or shards of different runs, are refused."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from harness_paths import DATA, HERE

from npukernelbench.sharding import Shard

pytest_plugins = ["pytester"]
TOOL = "--toolchain=gxx_toolchain:GxxToolchain"
SRC = HERE.parents[1] / "src"


@pytest.fixture
def tree(pytester, monkeypatch):
    """Twelve tasks: the two g++ cases under six categories each."""
    for category in ("a", "b", "c", "d", "e", "f"):
        shutil.copytree(DATA / "gxx_cases" / "level1" / "math" / "vadd", pytester.path / "cases" / "level1" / category
                        / "vadd")
        shutil.copytree(DATA / "gxx_cases" / "level2" / "norm" / "vscale", pytester.path / "cases" / "level2"
                        / category / "vscale")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SRC), str(HERE)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def run(tree, out, *extra):
    return tree.runpytest_subprocess("-p", "npukernelbench.plugin", "cases", TOOL, "--model=mutants", "--samples=3",
                                     "--shapes=static", f"--npukb-out={out}", *extra)


def report(tree, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)])}
    return subprocess.run([sys.executable, "-m", "npukernelbench.cli", "report", *args], cwd=tree.path, env=env,
                          capture_output=True, text=True, timeout=300)


def load(tree, out):
    return json.loads((tree.path / out / "summary.json").read_text())


def test_three_shards_merged_equal_the_unsharded_run(tree):
    run(tree, "whole")
    whole = load(tree, "whole")
    counts = []
    for k in (1, 2, 3):
        res = run(tree, f"s{k}", f"--npukb-shard={k}/3")
        counts.append(sum(1 for _ in (tree.path / f"s{k}" / "results.jsonl").open()))
        assert res.ret in (0, 1), res.stdout.str()[-2000:]
        assert json.loads((tree.path / f"s{k}" / "run.json").read_text())["shard"] == f"{k}/3"
    assert sum(counts) == 36 and all(counts)                           # 12 tasks x 3 samples, every shard used
    merged = report(tree, "--out", "merged", "s1", "s2", "s3")
    assert merged.returncode == 0, merged.stderr
    got = load(tree, "merged")
    for key in ("levels", "statuses", "taxonomy", "tasks", "samples_per_task"):
        assert got.get(key) == whole.get(key), key
    assert got["levels"] != {} and whole["statuses"].get("passed", 0) < 36   # mutants: a mixed run
    assert got["upstream_score"] == whole["upstream_score"] and got["socs"] == whole["socs"]
    socs = [json.loads((tree.path / d / "run.json").read_text())["socs"] for d in ("whole", "merged")]
    assert socs[0] and socs[0] == socs[1]

    dup = report(tree, "--out", "again", "s1", "s2", "whole")
    assert dup.returncode == 2 and "duplicate sample" in dup.stderr
    assert report(tree, "s1", "s2").returncode == 2                   # several directories need --out
    header = tree.path / "s3" / "run.json"
    changed = json.loads(header.read_text())
    changed["samples_per_task"] = 5
    header.write_text(json.dumps(changed))
    other = report(tree, "--out", "bad", "s1", "s2", "s3")
    assert other.returncode == 2 and "disagree on 'samples_per_task'" in other.stderr


@pytest.mark.parametrize("text", ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"])
def test_a_bad_shard_is_a_usage_error(text):
    with pytest.raises(ValueError, match="--npukb-shard"):
        Shard.parse(text)


def test_shards_partition_the_tasks():
    tasks = [f"level{i % 3 + 1}/cat{i % 7}/op_{i}" for i in range(300)]
    owners = [[k for k in range(1, 5) if Shard(k, 4).holds(t)] for t in tasks]
    assert all(len(o) == 1 for o in owners)
    sizes = [sum(1 for o in owners if o == [k]) for k in range(1, 5)]
    assert min(sizes) > 40                                            # roughly even


def test_the_shard_option_is_refused_when_malformed(tree):
    res = run(tree, "x", "--npukb-shard=5/4")
    assert res.ret == 4 and "--npukb-shard" in res.stderr.str()

"""The boundary holds without the first filters: every attack of boundary_attacks.py, fed through the
real evaluate pipeline with the static checks and the build's link checks switched off (build with
g++, the launcher loading the candidate's shared object, the strict comparison), at every confinement
level this machine offers, gets exactly its status -- nothing leaks into what is recorded, nothing
outside the scratch is touched, no process is left behind, no death the candidate caused is blamed on the harness.

A secret file (the canary) lies outside the sandbox and the harness's environment holds an API key
(also in a process of the harness's that was started with it, whose /proc/<pid>/environ shows it);
an attack that gets either reports it as hex on stderr and exits 42 (see boundary_attacks.py).
"""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest
from boundary_attacks import ATTACKS, Attack, by_class

from npukernelbench import confinement as conf_mod
from npukernelbench import evaluate as evaluate_mod
from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.result import Status
from npukernelbench.scrub import TEXT_LIMIT
from npukernelbench.toolchains.ascendc_sim import builder as builder_mod

OFFERED = sorted({conf_mod._detect(cap).name: cap for cap in conf_mod.LEVELS}.items(),
                 key=lambda item: conf_mod.LEVELS.index(item[1]))
ONE_RUN = EvalOptions(shapes="static", speed=False, seeds=1, determinism=False, run_timeout_s=30.0)


def test_at_least_two_attacks_per_class() -> None:
    classes = by_class()
    assert sorted(classes) == [1, 2, 3, 4, 5, 6, 7]
    assert all(len(attacks) >= 2 for attacks in classes.values()), {k: len(v) for k, v in classes.items()}


def _without_capabilities() -> list[str]:
    """A command prefix that drops every capability (npukb-confine without Landlock or seccomp), so that a
    decoy started with it is an ordinary process of the harness's user even when the tests run as root
    (a root process with capabilities is unreadable to a process without them anyway)."""
    confiner = conf_mod._boundary().confiner
    return [confiner, "--"] if confiner else []


@pytest.fixture(params=[cap for _, cap in OFFERED], ids=[name for name, _ in OFFERED])
def level(request, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every confinement level this machine offers (NPUKB_CONFINEMENT caps the wrapper)."""
    monkeypatch.setenv(conf_mod.ENV_CAP, request.param)
    return conf_mod.confinement_level()


@pytest.fixture
def unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """evaluate() without the static checks and without the build's link checks (what device and host
    code may call): both are first filters, never the boundary, so the attacks must reach it."""
    monkeypatch.setattr(evaluate_mod, "check_sources", lambda *args, **kwargs: None)
    monkeypatch.setattr(builder_mod, "_device_calls", lambda *args, **kwargs: [])
    monkeypatch.setattr(builder_mod, "_host_calls", lambda *args, **kwargs: [])


@pytest.fixture
def bait(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """A canary file outside every sandbox, an API key in the harness's environment, a TCP listener."""
    secret = f"canary-{uuid.uuid4().hex}"
    canary = tmp_path / "outside" / "canary.txt"
    canary.parent.mkdir()
    canary.write_text(secret + "\n")
    key = f"sk-{uuid.uuid4().hex}"
    monkeypatch.setenv("NPUKB_API_KEY", key)
    # /proc/<pid>/environ shows a process's environment as it was exec'd: a process of the harness's
    # started with the key (as a harness launched from a shell that exports it would be).
    decoy = subprocess.Popen([*_without_capabilities(), "sleep", "600"], env={**os.environ, "NPUKB_API_KEY": key})
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.2)
    hits: list[bytes] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            hits.append(b"connected")
            conn.close()

    listener = threading.Thread(target=accept, daemon=True)
    listener.start()
    yield {"canary": canary, "secret": secret, "key": key, "port": server.getsockname()[1], "hits": hits,
           "pid": decoy.pid}
    decoy.kill()
    decoy.wait()
    stop.set()
    listener.join(timeout=2)
    server.close()


def _forms(secret: str) -> list[str]:
    """The ways an attack may carry a secret out: as is, hex-encoded (what the attacks print)."""
    raw = secret.encode()
    return [secret, raw.hex(), raw[:16].hex()]


def _run(attack: Attack, add_spec, solution, toolchain, bait: dict):
    spec = dataclasses.replace(add_spec, cases=add_spec.cases[:1])
    files = attack.files(solution, str(bait["canary"]), bait["pid"], bait["key"], bait["port"])
    return evaluate(spec, Completion(task=spec.case_id, sample=0, files=files), toolchain, ONE_RUN)


def _stored(result) -> str:
    """Everything the result records (what results.jsonl holds)."""
    import json

    return json.dumps(result.to_json())


def _own_processes(marker: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if marker in Path(f"/proc/{name}/cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(name))
            except OSError:
                pass
    return found


@pytest.mark.parametrize("attack", [a for a in ATTACKS if a.runs_here], ids=lambda a: f"{a.cls}-{a.name}")
def test_boundary_holds(attack: Attack, level: str, unchecked, bait, add_spec, solution, toolchain) -> None:
    active = conf_mod.active_confinement()
    offered = {"files": active.level == conf_mod.BUBBLEWRAP or bool(active.boundary.landlock),
               "seccomp": active.boundary.seccomp}
    if attack.needs and not offered[attack.needs]:
        pytest.skip(f"{level} does not enforce what stops {attack.name} ({attack.needs}; docs/security.md, "
                    "'What is not enforced')")
    cache = Path(toolchain.cache.root)
    before = set(cache.rglob("atk-planted"))
    result = _run(attack, add_spec, solution, toolchain, bait)
    stored = _stored(result)
    refused = attack.or_refused and result.status is Status.BUILD_ERROR
    assert result.status is attack.expect or refused, \
        f"{attack.name} at {level}: {result.status.value}: {result.message}"
    for needle in attack.says if not refused else ():
        assert needle in result.message, f"{needle!r} not in {result.message!r}"
    for secret in (bait["secret"], bait["key"]):
        for form in _forms(secret):
            assert form not in stored, f"{attack.name} at {level} leaked {form!r}: {result.message[:2000]}"
    assert "LEAK " not in stored and "status 42" not in result.message, result.message[:2000]
    assert bait["canary"].read_text() == bait["secret"] + "\n", "the canary outside the sandbox was changed"
    assert sorted(bait["canary"].parent.iterdir()) == [bait["canary"]], "a file appeared beside the canary"
    assert set(cache.rglob("atk-planted")) == before, "a file was planted in the build cache"
    assert bait["hits"] == [], "the candidate reached the harness over TCP"
    assert "/root/.ssh" not in stored and "atk-outside-dir" not in stored and str(bait["canary"]) not in stored
    assert len(result.message) <= TEXT_LIMIT and len(stored) < 8 * TEXT_LIMIT, len(stored)
    time.sleep(0.1)
    assert _own_processes(str(bait["canary"])) == [], "a process of the run is still alive"

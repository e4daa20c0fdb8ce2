"""OpenAIGenerator: any OpenAI-compatible chat-completions server (vLLM's ``serve``, ``npukb serve``, ...).

``--model=http://HOST:PORT/v1`` or ``http://HOST:PORT/v1#MODEL_NAME``; without a model name the
server's ``/v1/models`` must list exactly one model. Several servers of one model, comma-separated
(``http://A:8000/v1,http://B:8000/v1#NAME``; a name given once applies to every URL without one):
prompts go to them round-robin, and all of them must serve the same model. Standard library only
(urllib).

- The ``n`` samples of a prompt are asked in one request (``n``); if the server returns fewer
  choices, the rest come from separate ``n=1`` requests seeded ``seed + index``.
- Requests of different prompts run concurrently (a thread pool, ``concurrency`` workers).
- HTTP 429 and 5xx answers and connection failures are retried with exponential backoff
  (``Retry-After`` honoured); each request has a timeout; an unreachable server gives a clear error.
- The API key, if the server needs one, comes from the ``NPUKB_API_KEY`` environment variable
  (sent as ``Authorization: Bearer``), never from a file.
- Tokens per sample: the choice's ``completion_tokens`` when the server reports it per choice
  (``npukb serve`` does), else ``usage.completion_tokens`` when there is one choice; with several
  choices and only a total, ``tokens`` stays None and the total is kept in ``meta``.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from npukernelbench.generators.base import Completion, GenerationRequest, SamplingParams
from npukernelbench.generators.hf import option
from npukernelbench.generators.progress import GenerationProgress

API_KEY_ENV = "NPUKB_API_KEY"
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class ServerError(RuntimeError):
    """The server cannot be reached or keeps failing; the message names the URL and what to do."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str          # http://HOST:PORT/v1 (no trailing slash)
    model: str | None      # from "#MODEL_NAME"

    @classmethod
    def parse(cls, spec: str) -> Endpoint:
        url, _, model = spec.partition("#")
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"{spec!r} is not a server URL; use http://HOST:PORT/v1 or http://HOST:PORT/v1#MODEL")
        return cls(base_url=url.rstrip("/"), model=model or None)


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 5
    backoff: float = 1.0            # first wait in seconds; doubles per retry
    max_backoff: float = 30.0

    def wait(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(float(retry_after), self.max_backoff)
            except ValueError:
                pass
        return min(self.backoff * (2 ** attempt), self.max_backoff)


class OpenAIGenerator:
    """``OpenAIGenerator("http://HOST:PORT/v1#MODEL", options)``; options fields used: ``timeout``
    (seconds per request, default 600), ``concurrency`` (default 8), ``max_retries`` (default 5),
    ``backoff`` (first retry wait, default 1 s), ``progress`` (bool), ``lora`` (rejected: serve the
    adapter under a model name instead)."""

    def __init__(self, model: str, options: Any = None):
        self.endpoints = _endpoints(model)
        self.endpoint = self.endpoints[0]
        if option(options, "lora"):
            raise ValueError("a LoRA adapter cannot be applied through a server URL: serve it under a model "
                             "name (vllm serve BASE --enable-lora --lora-modules NAME=DIR) and pass "
                             f"--model={self.endpoint.base_url}#NAME")
        self.timeout = float(option(options, "timeout", 600.0))
        self.concurrency = max(1, int(option(options, "concurrency", 8)))
        self.retry = RetryPolicy(max_retries=int(option(options, "max_retries", 5)),
                                 backoff=float(option(options, "backoff", 1.0)))
        self.show_progress = bool(option(options, "progress", True))
        self.api_key = os.environ.get(API_KEY_ENV) or None
        self._model_name: str | None = self.endpoint.model
        self._discover_lock = threading.Lock()
        self._count_lock = threading.Lock()
        self.requests_sent = 0
        self._next_endpoint = 0

    @property
    def name(self) -> str:
        return f"{','.join(e.base_url for e in self.endpoints)}#{self.model_name}"

    @property
    def identity(self) -> str:
        return self.name

    @property
    def model_name(self) -> str:
        if self._model_name is None:
            with self._discover_lock:
                if self._model_name is None:
                    self._model_name = self._discover_model()
        return self._model_name

    # -- HTTP ----------------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def call(self, method: str, path: str, body: Mapping[str, Any] | None = None,
             endpoint: Endpoint | None = None) -> Any:
        """One JSON call with retries (to the first endpoint unless one is named). Raises ServerError with
        the reason when it gives up."""
        url = f"{(endpoint or self.endpoint).base_url}{path}"
        data = json.dumps(body).encode("utf-8") if body is not None else None
        last = ""
        for attempt in range(self.retry.max_retries + 1):
            request = urllib.request.Request(url, data=data, method=method, headers=self._headers())
            retry_after = None
            with self._count_lock:
                self.requests_sent += 1
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    payload = response.read()
                try:
                    return json.loads(payload)
                except json.JSONDecodeError as exc:
                    raise ServerError(f"{method} {url}: the answer is not JSON ({exc}); is this an "
                                      f"OpenAI-compatible server?") from exc
            except urllib.error.HTTPError as exc:
                detail = _error_detail(exc)
                if exc.code not in RETRY_STATUS:
                    hint = (f"; set {API_KEY_ENV} to the server's API key" if exc.code in (401, 403) else "")
                    raise ServerError(f"{method} {url}: HTTP {exc.code}: {detail}{hint}") from exc
                last = f"HTTP {exc.code}: {detail}"
                retry_after = exc.headers.get("Retry-After") if exc.headers else None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
                reason = getattr(exc, "reason", exc)
                last = f"{type(reason).__name__}: {reason}"
            if attempt < self.retry.max_retries:
                time.sleep(self.retry.wait(attempt, retry_after))
        raise ServerError(f"{method} {url} failed after {self.retry.max_retries + 1} attempts ({last}). "
                          f"Is an OpenAI-compatible server running there? Start one with "
                          f"`npukb serve --model PATH` or `vllm serve PATH`, or fix --model.")

    def _discover_model(self) -> str:
        names = {e.base_url: e.model or self._listed_model(e) for e in self.endpoints}
        if len(set(names.values())) > 1:
            raise ServerError("the servers of --model serve different models ("
                              + ", ".join(f"{url}: {name}" for url, name in names.items())
                              + "); round-robin needs one model behind every URL")
        return names[self.endpoint.base_url]

    def _listed_model(self, endpoint: Endpoint) -> str:
        listing = self.call("GET", "/models", endpoint=endpoint)
        ids = [m.get("id") for m in listing.get("data", []) if isinstance(m, Mapping)]
        if len(ids) != 1:
            raise ServerError(f"{endpoint.base_url} serves {len(ids)} models ({', '.join(map(str, ids))}); "
                              f"name one: --model={endpoint.base_url}#MODEL_NAME")
        return str(ids[0])

    def _take_endpoint(self) -> Endpoint:
        """The next server, round-robin."""
        with self._count_lock:
            endpoint = self.endpoints[self._next_endpoint % len(self.endpoints)]
            self._next_endpoint += 1
        return endpoint

    # -- generation ----------------------------------------------------------------------------

    def _body(self, messages: Sequence[Mapping[str, str]], sampling: SamplingParams, n: int, seed: int) -> dict:
        return {"model": self.model_name, "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
                "n": n, "temperature": sampling.temperature, "top_p": sampling.top_p,
                "max_tokens": sampling.max_tokens, "seed": seed, "stream": False}

    def chat(self, messages: Sequence[Mapping[str, str]],
             sampling: SamplingParams) -> list[tuple[str, int | None, dict]]:
        """``sampling.n`` (text, tokens, meta) for one prompt (all from one server)."""
        endpoint = self._take_endpoint()
        answer = self.call("POST", "/chat/completions", self._body(messages, sampling, sampling.n, sampling.seed),
                           endpoint)
        samples = _choices(answer)
        index = len(samples)
        while len(samples) < sampling.n:
            extra = self.call("POST", "/chat/completions",
                              self._body(messages, sampling, 1, sampling.seed + index), endpoint)
            got = _choices(extra)
            if not got:
                raise ServerError(f"{endpoint.base_url}: the server returned no choices for a request")
            samples.extend(got[:1])
            index += 1
        return samples[:sampling.n]

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        total = sum(r.sampling.n for r in requests)
        _ = self.model_name          # discover once, before the threads start
        with GenerationProgress(total, label=f"generating ({self.name})", enabled=self.show_progress,
                                total_requests=len(requests)) as bar, \
                ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            def one(request: GenerationRequest) -> list[Completion]:
                started = time.monotonic()
                samples = self.chat(request.messages, request.sampling)
                seconds = round(time.monotonic() - started, 3)
                bar.update(len(samples), _request_tokens(samples))
                return [Completion(task=request.id, sample=i, text=text, tokens=tokens,
                                   meta={"model": self.name, "backend": "openai", "request_seconds": seconds, **meta})
                        for i, (text, tokens, meta) in enumerate(samples)]
            return list(pool.map(one, requests))

    def close(self) -> None:
        pass


def _endpoints(spec: str) -> list[Endpoint]:
    """The servers of a ``--model`` spec: ``URL[#NAME][,URL[#NAME]]...``; a name given to some URLs
    only applies to the others too (it must be the same wherever given)."""
    endpoints = [Endpoint.parse(part.strip()) for part in spec.split(",") if part.strip()]
    if not endpoints:
        raise ValueError(f"--model={spec!r}: no server URL")
    names = {e.model for e in endpoints if e.model}
    if len(names) > 1:
        raise ValueError(f"--model={spec!r}: different model names ({', '.join(sorted(names))}); round-robin "
                         "needs one model behind every URL")
    if names:
        name = names.pop()
        endpoints = [Endpoint(base_url=e.base_url, model=name) for e in endpoints]
    if len({e.base_url for e in endpoints}) != len(endpoints):
        raise ValueError(f"--model={spec!r}: a server URL is named twice")
    return endpoints


def _request_tokens(samples: Sequence[tuple[str, int | None, dict]]) -> int:
    """The completion tokens of one request's samples: each sample's own count, and for the samples of
    one answer that only counted them all together (``usage``), that total once."""
    known = sum(t for _, t, _ in samples if t is not None)
    shared = [m["usage_completion_tokens_total"] for _, t, m in samples
              if t is None and "usage_completion_tokens_total" in m]
    return known + max(shared, default=0)


def _choices(answer: Any) -> list[tuple[str, int | None, dict]]:
    if not isinstance(answer, Mapping) or not isinstance(answer.get("choices"), list):
        raise ServerError(f"unexpected chat-completions answer (no 'choices' list): {str(answer)[:200]}")
    choices = sorted(answer["choices"], key=lambda c: c.get("index", 0))
    usage = answer.get("usage") or {}
    total = usage.get("completion_tokens")
    result = []
    for choice in choices:
        message = choice.get("message") or {}
        text = message.get("content") or ""
        tokens = choice.get("completion_tokens")
        if tokens is None and len(choices) == 1:
            tokens = total
        meta: dict[str, Any] = {"finish_reason": choice.get("finish_reason")}
        reasoning = message.get("reasoning_content")
        if reasoning:
            meta["reasoning_content"] = reasoning
        if tokens is None and total is not None:
            meta["usage_completion_tokens_total"] = total
        result.append((text, tokens, meta))
    return result


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        body = exc.read().decode("utf-8", "replace")
    except OSError:
        return str(exc.reason)
    try:
        data = json.loads(body)
        if isinstance(data, Mapping) and isinstance(data.get("error"), Mapping):
            return str(data["error"].get("message", body))[:500]
    except json.JSONDecodeError:
        pass
    return body[:500] or str(exc.reason)

"""OpenAIGenerator against real localhost servers: ``npukb serve`` on the tiny model, and small
scripted HTTP servers for retries, fallbacks, timeouts, keys and concurrency."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams
from npukernelbench.generators.hf import HFGenerator
from npukernelbench.generators.openai_client import Endpoint, OpenAIGenerator, ServerError
from npukernelbench.prompt import build_messages

FAST = GeneratorOptions(progress=False, backoff=0.01, max_retries=5, timeout=30)


class Scripted:
    """A real HTTP server whose answers come from ``respond(body, headers) -> (status, payload)``."""

    def __init__(self, respond: Callable[[dict, dict], tuple[int, dict]], delay: float = 0.0):
        self.seen: list[tuple[str, dict, dict]] = []
        self.inflight = 0
        self.max_inflight = 0
        lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status: int, payload: dict, headers: dict | None = None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._answer(200, {"data": [{"id": "scripted"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    outer.seen.append((self.path, body, dict(self.headers)))
                    outer.inflight += 1
                    outer.max_inflight = max(outer.max_inflight, outer.inflight)
                time.sleep(delay)
                status, payload = respond(body, dict(self.headers))
                with lock:
                    outer.inflight -= 1
                self._answer(status, payload, {"Retry-After": "0"} if status == 429 else None)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def choices(body: dict, count: int | None = None) -> dict:
    n = body.get("n", 1) if count is None else count
    return {"choices": [{"index": i, "message": {"role": "assistant", "content": f"seed{body['seed']}-{i}"},
                         "finish_reason": "stop"} for i in range(n)], "usage": {"completion_tokens": 7 * n}}


@pytest.fixture
def scripted():
    servers = []

    def make(respond, delay=0.0):
        servers.append(Scripted(respond, delay))
        return servers[-1]
    yield make
    for s in servers:
        s.close()


def req(task, **sampling):
    return GenerationRequest(task=task, messages=build_messages(task), sampling=SamplingParams(**sampling))


def test_endpoint_parsing():
    assert Endpoint.parse("http://h:8000/v1/#qwen") == Endpoint("http://h:8000/v1", "qwen")
    assert Endpoint.parse("https://h/v1") == Endpoint("https://h/v1", None)
    with pytest.raises(ValueError, match="not a server URL"):
        Endpoint.parse("h:8000")


def test_round_robin_over_several_servers(scripted, add_custom):
    a, b = scripted(lambda body, h: (200, choices(body))), scripted(lambda body, h: (200, choices(body)))
    gen = OpenAIGenerator(f"{a.url},{b.url}", FAST)
    assert gen.model_name == "scripted" and gen.name == f"{a.url},{b.url}#scripted"
    batches = gen.generate([req(add_custom, n=2, seed=s, max_tokens=4) for s in range(6)])
    assert [len(x) for x in batches] == [2] * 6 and [c.text for c in batches[3]] == ["seed3-0", "seed3-1"]
    assert len(a.seen) == 3 and len(b.seen) == 3                 # one prompt per request, alternating
    named = OpenAIGenerator(f"{a.url},{b.url}#scripted", FAST)
    assert [e.model for e in named.endpoints] == ["scripted", "scripted"]
    with pytest.raises(ValueError, match="different model names"):
        OpenAIGenerator(f"{a.url}#x,{b.url}#y", FAST)
    with pytest.raises(ValueError, match="named twice"):
        OpenAIGenerator(f"{a.url},{a.url}/", FAST)


def test_serve_end_to_end(served_model, tiny_model, add_custom):
    gen = OpenAIGenerator(served_model.url, FAST)
    assert gen.model_name == tiny_model.name and gen.name == f"{served_model.url}#{tiny_model.name}"
    request = req(add_custom, n=3, max_tokens=10, seed=11, temperature=0.9, top_p=0.9)
    (batch,) = gen.generate([request])
    assert [c.sample for c in batch] == [0, 1, 2] and len({c.text for c in batch}) == 3
    assert all(1 <= c.tokens <= 10 for c in batch)
    assert [c.text for c in gen.generate([request])[0]] == [c.text for c in batch], "seeded: same samples"
    # The server's samples are exactly the in-process transformers samples for the same seed.
    local = HFGenerator(str(tiny_model), GeneratorOptions(progress=False)).generate([request])[0]
    assert [c.text for c in local] == [c.text for c in batch]
    assert [c.tokens for c in local] == [c.tokens for c in batch]
    named = OpenAIGenerator(f"{served_model.url}#{tiny_model.name}", FAST)
    assert [c.text for c in named.generate([request])[0]] == [c.text for c in batch]


def test_serve_health_counts_requests_and_completions_apart(served_model, add_custom):
    """One request with n=3 is one request and three completions; a rejected request is neither."""
    def health() -> dict:
        with urllib.request.urlopen(served_model.url.removesuffix("/v1") + "/health", timeout=10) as r:
            return json.loads(r.read())

    before = health()
    OpenAIGenerator(served_model.url, FAST).generate([req(add_custom, n=3, max_tokens=2, seed=5)])
    with pytest.raises(ServerError, match="HTTP 400"):
        OpenAIGenerator(served_model.url, FAST).call("POST", "/chat/completions", {"messages": []})
    after = health()
    assert after["requests_served"] - before["requests_served"] == 1
    assert after["completions_served"] - before["completions_served"] == 3


def test_serve_rejects_unknown_model_and_bad_requests(served_model):
    gen = OpenAIGenerator(served_model.url + "#other", FAST)
    with pytest.raises(ServerError, match="HTTP 404.*not served here"):
        gen.chat([{"role": "user", "content": "x"}], SamplingParams(n=1, max_tokens=2))
    plain = OpenAIGenerator(served_model.url, FAST)
    for body, pattern in (({"messages": []}, "non-empty list"), ({"messages": [{"role": "user", "content": "x"}],
                                                                  "n": 0}, "'n' must be"),
                          ({"messages": [{"role": "user", "content": "x"}], "stream": True}, "stream")):
        with pytest.raises(ServerError, match=f"HTTP 400.*{pattern}"):
            plain.call("POST", "/chat/completions", body)


def test_retries_with_backoff_then_success(scripted, add_custom):
    answers = iter([429, 503, 500])

    def respond(body, headers):
        status = next(answers, 200)
        return (status, choices(body)) if status == 200 else (status, {"error": {"message": "busy"}})
    server = scripted(respond)
    gen = OpenAIGenerator(server.url + "#scripted", FAST)
    (batch,) = gen.generate([req(add_custom, n=2, seed=4)])
    assert [c.text for c in batch] == ["seed4-0", "seed4-1"]
    assert len(server.seen) == 4            # three failures, then the answer
    assert batch[0].tokens is None and batch[0].meta["usage_completion_tokens_total"] == 14


def test_gives_up_with_the_last_error(scripted, add_custom):
    server = scripted(lambda body, h: (503, {"error": {"message": "overloaded"}}))
    gen = OpenAIGenerator(server.url + "#scripted", GeneratorOptions(progress=False, backoff=0.01, max_retries=2))
    with pytest.raises(ServerError, match="3 attempts.*HTTP 503: overloaded"):
        gen.generate([req(add_custom, n=1)])
    assert len(server.seen) == 3


def test_fallback_to_single_requests_when_fewer_choices(scripted, add_custom):
    server = scripted(lambda body, h: (200, choices(body, count=1)))
    gen = OpenAIGenerator(server.url + "#scripted", FAST)
    (batch,) = gen.generate([req(add_custom, n=3, seed=10)])
    assert [c.text for c in batch] == ["seed10-0", "seed11-0", "seed12-0"]
    assert [b["n"] for _, b, _ in server.seen] == [3, 1, 1]
    assert batch[0].tokens == 7          # one choice: usage.completion_tokens is that sample's count


def test_concurrent_requests_and_api_key(scripted, add_custom, monkeypatch):
    monkeypatch.setenv("NPUKB_API_KEY", "sk-test-123")
    server = scripted(lambda body, h: (200, choices(body)), delay=0.3)
    gen = OpenAIGenerator(server.url + "#scripted", GeneratorOptions(progress=False, concurrency=4))
    out = gen.generate([req(add_custom, n=1, seed=s) for s in range(4)])
    assert [b[0].text for b in out] == ["seed0-0", "seed1-0", "seed2-0", "seed3-0"]
    assert server.max_inflight > 1
    assert all(h.get("Authorization") == "Bearer sk-test-123" for _, _, h in server.seen)
    sent = server.seen[0][1]
    assert sent["model"] == "scripted" and sent["max_tokens"] == 8192 and sent["top_p"] == 0.95


def test_progress_line_per_request(scripted, add_custom, capsys):
    """A log (captured stderr is no terminal) gets a line per finished request: requests and samples
    done of the total, the tokens the server counted, tokens/s and an ETA."""
    server = scripted(lambda body, h: (200, choices(body)), delay=0.05)
    gen = OpenAIGenerator(server.url, GeneratorOptions(progress=True, concurrency=1))
    gen.generate([req(add_custom, n=2, seed=s, max_tokens=4) for s in range(3)])
    lines = capsys.readouterr().err.splitlines()
    assert [ln.split("] ")[1].split(" |")[0] for ln in lines] == [
        "1/3 requests, 2/6 samples", "2/3 requests, 4/6 samples", "3/3 requests, 6/6 samples"], lines
    assert [ln.split(" | ")[1] for ln in lines] == ["14 tokens", "28 tokens", "42 tokens"]
    assert all("tok/s" in ln for ln in lines) and "ETA about " in lines[0] and lines[-1].endswith("ETA 0:00")


def test_auth_failure_names_the_env_var(scripted, add_custom):
    server = scripted(lambda body, h: (401, {"error": {"message": "invalid api key"}}))
    gen = OpenAIGenerator(server.url + "#scripted", FAST)
    with pytest.raises(ServerError, match="HTTP 401: invalid api key; set NPUKB_API_KEY"):
        gen.generate([req(add_custom, n=1)])
    assert len(server.seen) == 1            # not retried


def test_request_timeout(scripted, add_custom):
    server = scripted(lambda body, h: (200, choices(body)), delay=2.0)
    gen = OpenAIGenerator(server.url + "#scripted", GeneratorOptions(progress=False, timeout=0.3, max_retries=0))
    with pytest.raises(ServerError, match="timed out"):
        gen.generate([req(add_custom, n=1)])


def test_unreachable_server_is_a_clear_error(add_custom):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    gen = OpenAIGenerator(f"http://127.0.0.1:{port}/v1", GeneratorOptions(progress=False, backoff=0.01, max_retries=1))
    with pytest.raises(ServerError, match=r"failed after 2 attempts.*Connection.*npukb serve --model PATH"):
        gen.generate([req(add_custom, n=1)])


def test_lora_through_url_is_refused():
    with pytest.raises(ValueError, match="--lora-modules"):
        OpenAIGenerator("http://127.0.0.1:1/v1", GeneratorOptions(lora="/tmp/adapter"))


@pytest.mark.parametrize("project_level", [False, True])
def test_project_level_option_reaches_the_prompt(scripted, add_custom, monkeypatch, tmp_path, project_level):
    """``--project-level`` (RunOptions.project_level) adds the static cases and the hardware description
    to the prompt the model receives."""
    from npukernelbench.generation import generate_for
    from npukernelbench.options import RunOptions

    monkeypatch.setenv("NPUKB_CACHE_DIR", str(tmp_path / "cache"))
    server = scripted(lambda body, headers: (200, choices(body)))
    options = RunOptions(model=f"{server.url}#scripted", samples=2, project_level=project_level)
    completions = generate_for([add_custom], options)
    assert sorted(completions) == [(add_custom.case_id, 0), (add_custom.case_id, 1)]
    prompt = "\n".join(m["content"] for m in server.seen[0][1]["messages"])
    assert ("Ascend910B" in prompt) is project_level
    assert ("196,608" in prompt) is project_level

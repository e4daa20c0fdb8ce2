"""Execution check of every code-bearing answer, through the benchmark's own pipeline.

- With a case: ``npukernelbench.evaluate.evaluate`` (static checks, build, runs against the torch
  reference) -> ``passed`` or ``failed``.
- Without a case (an op project from a user's folder, a complete project in a documentation
  answer): static checks, then a build for the OpDef's first dtype column -> ``built`` or ``failed``.
- No complete op project in the answer -> ``not_applicable``.

Outcomes are cached in ``OUT/cache/verify.jsonl`` by (case, files, options), so a resumed build runs
nothing twice. Time-outs (which may be the machine's load, not the candidate) are never cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascend_cot.config import VerifyConfig
from ascend_cot.sample import Verified
from npukernelbench.infrastructure import InfrastructureError, retry_once

_OPDEF_CLASS = re.compile(r"class\s+(\w+)\s*:\s*public\s+OpDef")
_ENTRY = re.compile(r"extern\s+\"C\"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(")


class ToolchainUnavailable(RuntimeError):
    """The toolchain that verifies answers cannot run here (no compiler, unknown name), or our own
    machinery failed during a check (never blamed on the candidate; rerun to resume)."""


@dataclass(frozen=True)
class Verification:
    verified: Verified
    message: str = ""
    status: str = ""                  # npukernelbench status (passed, build_error, wrong, ...) or ""
    diagnostics: str = ""             # build diagnostics, when the build failed


def project_files(text: str) -> dict[str, str] | None:
    """The op project in an answer (fenced blocks labelled op_host/... and op_kernel/...), or None
    when it holds no complete one (a host .cpp and a kernel .cpp)."""
    from npukernelbench.extract import ParseError, extract_files

    try:
        files = extract_files(text, ())
    except ParseError:
        return None
    hosts = [p for p in files if p.startswith("op_host/") and p.endswith(".cpp")]
    kernels = [p for p in files if p.startswith("op_kernel/") and p.endswith(".cpp")]
    return files if hosts and kernels else None


def kernel_name(files: Mapping[str, str]) -> str | None:
    for path, text in sorted(files.items()):
        if path.startswith("op_kernel/") and path.endswith(".cpp"):
            m = _ENTRY.search(text)
            if m:
                return m.group(1)
    return None


def _first_column_project(signature: Any, kernel: str, files: Mapping[str, str]) -> Any:
    """The project bound to the first DataType column of a described OpDef (a build check with no case)."""
    from npukernelbench.toolchains.base import KernelProject, ParamSlot

    params = []
    for p in (*signature.inputs, *signature.outputs):
        dtype = p.dtypes[0] if p.dtypes else ""
        params.append(ParamSlot(p.name, p.role, p.param_type, dtype))
    return KernelProject(op=signature.op, kernel=kernel, files=dict(files), params=tuple(params))


class Verifier:
    def __init__(self, config: VerifyConfig, cache_file: Path | None):
        from npukernelbench.toolchains import get_toolchain

        self.config = config
        try:
            self.toolchain = get_toolchain(config.toolchain)
        except ValueError as exc:
            raise ToolchainUnavailable(f"verify.toolchain: {exc}") from None
        reason = self.toolchain.unavailable_reason()
        if reason:
            raise ToolchainUnavailable(f"toolchain {config.toolchain} is unavailable: {reason}")
        self.cache_file = cache_file
        self._lock = threading.Lock()
        self._cache: dict[str, dict[str, Any]] = {}
        self.runs = 0
        self.hits = 0
        if cache_file is not None and cache_file.is_file():
            for line in cache_file.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                    self._cache[row["key"]] = row
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue                   # a torn last line from a killed build

    def options(self) -> Any:
        from npukernelbench.evaluate import EvalOptions

        c = self.config
        return EvalOptions(shapes=c.shapes, shape_examples=c.shape_examples, seeds=c.seeds,
                           run_timeout_s=c.run_timeout_s, speed=False, data_seed=c.data_seed)

    def _key(self, case_id: str, files: Mapping[str, str]) -> str:
        payload = json.dumps({"case": case_id, "files": sorted(files.items()), "config": [
            self.config.toolchain, self.config.shapes, self.config.shape_examples, self.config.seeds,
            self.config.data_seed]})
        return hashlib.sha256(payload.encode()).hexdigest()

    def _cached(self, key: str) -> Verification | None:
        row = self._cache.get(key)
        if row is None:
            return None
        self.hits += 1
        return Verification(Verified(row["verified"]), row.get("message", ""), row.get("status", ""),
                            row.get("diagnostics", ""))

    def _store(self, key: str, result: Verification, cacheable: bool) -> Verification:
        self.runs += 1
        if not cacheable or self.cache_file is None:
            return result
        row = {"key": key, "verified": result.verified.value, "message": result.message, "status": result.status,
               "diagnostics": result.diagnostics}
        with self._lock:
            self._cache[key] = row
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            with self.cache_file.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        return result

    def verify_case(self, spec: Any, files: Mapping[str, str]) -> Verification:
        """Evaluate ``files`` as a solution of ``spec`` (a TaskSpec)."""
        from npukernelbench.evaluate import evaluate
        from npukernelbench.generators.base import Completion
        from npukernelbench.result import Status

        key = self._key(spec.case_id, files)
        hit = self._cached(key)
        if hit is not None:
            return hit
        try:            # evaluate() retries a failure of our machinery once; it is never the code's
            result = evaluate(spec, Completion(spec.case_id, 0, files=dict(files)), self.toolchain, self.options())
        except InfrastructureError as exc:
            raise ToolchainUnavailable(f"verifying a {spec.case_id} project: {exc.cause}; nothing was "
                                       "recorded against the candidate: rerun the build to resume") from None
        verified = Verified.PASSED if result.status is Status.PASSED else Verified.FAILED
        diagnostics = str(result.details.get("diagnostics", "")) if result.status is Status.BUILD_ERROR else ""
        timed_out = result.status is Status.TIMEOUT or "timed out" in result.message
        return self._store(key, Verification(verified, result.message, result.status.value, diagnostics),
                           cacheable=not timed_out)

    def verify_build(self, files: Mapping[str, str]) -> Verification:
        """Static checks and a build of a project that has no case."""
        from npukernelbench.checks import check_sources
        from npukernelbench.toolchains.base import HostDescriber, KernelProject

        key = self._key("", files)
        hit = self._cached(key)
        if hit is not None:
            return hit
        finding = check_sources(files, self.toolchain.include_allowlist(), self.toolchain.preprocessing())
        if finding is not None:
            return self._store(key, Verification(Verified.FAILED, str(finding), "rejected"), True)
        kernel = kernel_name(files)
        host = next(((p, t) for p, t in sorted(files.items()) if p.startswith("op_host/") and _OPDEF_CLASS.search(t)),
                    None)
        if kernel is None or host is None:
            return self._store(key, Verification(Verified.FAILED, "no kernel entry (extern \"C\" __global__ "
                                                 "__aicore__) or no OpDef class in the host files",
                                                 "build_error"), True)
        op = _OPDEF_CLASS.search(host[1]).group(1)      # type: ignore[union-attr]
        if not isinstance(self.toolchain, HostDescriber):
            return self._store(key, Verification(Verified.NOT_APPLICABLE, f"toolchain {self.toolchain.name} cannot "
                                                 "describe host code"), False)
        try:            # a failure of our machinery is retried once; it is never the code's
            described = retry_once(lambda: self.toolchain.describe(
                KernelProject(op=op, kernel=kernel, files=dict(files), params=())))
            signature = described.signature(op) if described.ok else None
            if signature is None:
                why = described.diagnostics.strip().splitlines()[0] if described.diagnostics.strip() else \
                    f"no OpDef {op} registered"
                return self._store(key, Verification(Verified.FAILED, f"host code: {why}", "build_error",
                                                     described.diagnostics), cacheable=not described.timed_out)
            project = _first_column_project(signature, kernel, files)
            build = retry_once(lambda: self.toolchain.build(project))
        except InfrastructureError as exc:
            raise ToolchainUnavailable(f"building a project: {exc.cause}; rerun the build to resume") from None
        if build.ok:
            return self._store(key, Verification(Verified.BUILT, "builds (no case to run it against)", "built"),
                               True)
        head = next((ln for ln in build.diagnostics.splitlines() if "error" in ln), "build failed")
        return self._store(key, Verification(Verified.FAILED, head.strip(), "build_error", build.diagnostics),
                           cacheable=not build.timed_out)

    def verify_answer(self, text: str, spec: Any | None) -> tuple[Verification, dict[str, str] | None]:
        """The outcome for an answer text: its op project (if any) checked against ``spec`` or built."""
        files = project_files(text)
        if files is None:
            return Verification(Verified.NOT_APPLICABLE, "no complete op project in the answer"), None
        if spec is not None:
            return self.verify_case(spec, files), files
        return self.verify_build(files), files

"""Mutation score of the verdict path: can the tests around each verdict fail?

Usage::

    pip install -e ".[mutation]"          # cosmic-ray
    python benchmarks/mutation_score.py [--modules compare metrics ...] [--jobs 2] [--json out.json]

Python modules are mutated by cosmic-ray (operator mutants: arithmetic, comparisons, boolean
operators, constants, negations, loops, exceptions), one mutant at a time, each followed by the
module's focused test command; a mutant is *killed* when that command fails. To keep a run near
half an hour on two cores the operator set is reduced to the usual representative subset (each
arithmetic operator to one other, comparisons to their boundary and negated forms), and
``evaluate.py`` / ``reference_runner.py`` are restricted to their verdict logic (the functions in
``TARGETS``). Tables (diagnostic rules, forbidden names, allow-lists), the injected bugs of the
original audit, ``toolchain.py``'s wall-clock limit and the simulator's allocator and bounds checks
(C++ headers) are covered by the hand-made mutants in ``HAND_MADE``, applied as text edits.

Everything runs on copies of the repository in a scratch directory; the working tree is never
modified. Survivors that cannot be killed because they do not change behaviour are listed in
``EQUIVALENT`` with the reason, printed with the table, and left out of the score's denominator.
Not part of CI's time budget (it runs thousands of test commands).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from queue import Queue

ROOT = Path(__file__).resolve().parents[1]
PKG = "src/npukernelbench"
SIM = f"{PKG}/toolchains/ascendc_sim/include/npukb_sim/kernel"
CASE_TOML = f"{PKG}/layouts/case_toml/checker.py"
UPSTREAM = f"{PKG}/layouts/upstream/checker.py"


@dataclass(frozen=True)
class Target:
    """A Python module mutated by cosmic-ray, the tests that must kill its mutants, and (optionally)
    the functions whose mutants count (cosmic-ray's definition names)."""

    name: str
    path: str
    tests: tuple[str, ...]
    definitions: tuple[str, ...] = ()


TARGETS: tuple[Target, ...] = (
    Target("compare.py", f"{PKG}/compare.py", ("tests/harness/test_compare_tolerance.py",)),
    Target("metrics.py", f"{PKG}/metrics.py", ("tests/harness/test_metrics.py",)),
    Target("checks.py", f"{PKG}/checks.py",
           ("tests/adversarial/test_static_checks.py", "-k", "not every_expert_solution")),
    # the classifier (trim() only shortens logs for people: no verdict or class depends on it)
    Target("diagnostics.py", f"{PKG}/diagnostics.py", ("tests/harness/test_diagnostic_rules.py",),
           ("parse", "close", "classify", "classify_diagnostic", "_is_element_type", "_conflict_is_kind_mismatch",
            "_conversion_is_dtype_only", "_norm", "_r", "Diagnostic", "_Rule", "")),
    Target("reference_runner.py", f"{PKG}/reference_runner.py",
           ("tests/harness/test_reference_outputs.py", "tests/harness/test_custom_check.py"),
           ("hook_passed", "custom_check", "_as_outputs", "to_numpy", "expected")),
    Target("evaluate.py", f"{PKG}/evaluate.py",
           ("tests/harness/test_evaluate_verdicts.py", "tests/harness/test_custom_check.py"),
           ("evaluate", "_evaluate_once", "files_of", "_build_result")),
    Target("checker.py", f"{PKG}/checker.py",
           ("tests/harness/test_evaluate_verdicts.py", "tests/harness/test_custom_check.py"),
           ("check", "check_static", "input_seed")),
    Target("case_toml/checker.py", f"{PKG}/layouts/case_toml/checker.py",
           ("tests/harness/test_evaluate_verdicts.py", "tests/harness/test_custom_check.py"),
           ("check_seed",)),
)


@dataclass(frozen=True)
class HandMutant:
    """A text edit of one file (``old`` must occur exactly once) and the tests that must catch it."""

    module: str
    id: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


VIOLATIONS = "tests/sim_kernel/test_violations.py"
STATIC = ("tests/adversarial/test_static_checks.py", "-k", "not every_expert_solution")
DIAG = ("tests/harness/test_diagnostic_rules.py",)
PREDICTABLE = "tests/adversarial/test_predictable_checks.py"


def _hand_made() -> list[HandMutant]:
    m: list[HandMutant] = [
        # -- the bugs injected by the audit that the suite missed --------------------------------
        HandMutant("metrics.py", "audit: k <= samples became <", f"{PKG}/metrics.py",
                   "k for k in KS if k <= samples", "k for k in KS if k < samples", ("tests/harness/test_metrics.py",)),
        HandMutant("metrics.py", "audit: n - c < k became <=", f"{PKG}/metrics.py",
                   "if n - c < k:", "if n - c <= k:", ("tests/harness/test_metrics.py",)),
        HandMutant("compare.py", "audit: sign of infinities ignored", f"{PKG}/compare.py",
                   "close = np.where(e_inf, g == e, close)", "close = np.where(e_inf, np.isinf(g), close)",
                   ("tests/harness/test_compare_tolerance.py",)),
        HandMutant("compare.py", "audit: NaN in the reference accepts anything", f"{PKG}/compare.py",
                   "close = np.where(e_nan, g_nan, close & ~g_nan)", "close = np.where(e_nan, True, close & ~g_nan)",
                   ("tests/harness/test_compare_tolerance.py",)),
        HandMutant("compare.py", "audit: rtol floored at 5%", f"{PKG}/compare.py",
                   "tol = tolerance.atol + tolerance.rtol * np.abs(e)",
                   "tol = tolerance.atol + max(tolerance.rtol, 0.05) * np.abs(e)",
                   ("tests/harness/test_compare_tolerance.py",)),
        HandMutant("compare.py", "tolerance relative to the output", f"{PKG}/compare.py",
                   "tolerance.rtol * np.abs(e)", "tolerance.rtol * np.abs(g)",
                   ("tests/harness/test_compare_tolerance.py",)),
        HandMutant("compare.py", "integers compared as float64", f"{PKG}/compare.py",
                   "g = values.astype(np.int64) if dt.kind == \"bool\" else values",
                   "g = values.astype(np.float64)", ("tests/harness/test_compare_tolerance.py",)),
        HandMutant("checks.py", "audit: fopen64 accepted", f"{PKG}/checks.py",
                   'for suffix in ("64", "_2", "_chk", "_nocancel"):', 'for suffix in ("_2", "_chk", "_nocancel"):',
                   STATIC),
        HandMutant("checks.py", "audit: splice after trailing blanks not joined", f"{PKG}/checks.py",
                   'while j < n and text[j] in " \\t\\r":', 'while j < n and text[j] in "\\r":', STATIC),
        HandMutant("reference_runner.py", "audit: tolerance hook's result ignored", f"{PKG}/reference_runner.py",
                   'return hook_passed(hook(got, expected, case), f"{self.spec.reference.path}: check()")',
                   "hook(got, expected, case)\n        return None", ("tests/harness/test_custom_check.py",)),
        HandMutant("reference_runner.py", "public hook's result ignored", f"{PKG}/reference_runner.py",
                   'if not hook_passed(hook(case.row, e, g), f"{self.spec.folder}: custom_check_precision()"):',
                   "if not (hook(case.row, e, g) or True):", ("tests/harness/test_custom_check.py",)),
        HandMutant("reference_runner.py", "tuple result taken as truthy", f"{PKG}/reference_runner.py",
                   "        value = value[0]\n", "        value = bool(value)\n",
                   ("tests/harness/test_custom_check.py",)),
        HandMutant("case_toml/checker.py", "audit: a passing hook overrides a failed tolerance check", CASE_TOML,
                   "if verdict.ok and self.reference.custom_check(case, run.outputs, expected, dtypes) is False:",
                   "if (verdict.ok or verdict.index is not None) and self.reference.custom_check(case, run.outputs, "
                   "expected, dtypes) is True:\n            verdict = replace(verdict, ok=True)\n"
                   "        elif verdict.ok and self.reference.custom_check(case, run.outputs, expected, dtypes) "
                   "is False:", ("tests/harness/test_custom_check.py",)),
        HandMutant("case_toml/checker.py", "inputs-unchanged check dropped", CASE_TOML,
                   "if not same_bits(run.inputs_after[d.name], inputs[d.name]):", "if False:",
                   ("tests/harness/test_evaluate_verdicts.py",)),
        HandMutant("case_toml/checker.py", "determinism rerun dropped", CASE_TOML,
                   "if self.options.determinism:", "if False:", ("tests/harness/test_evaluate_verdicts.py",)),
        # -- checks a policy cannot predict (issue 25, class 6) and the floors on upstream tasks ----
        HandMutant("upstream/layout.py", "upstream tasks checked on their CSV rows only",
                   f"{PKG}/layouts/upstream/layout.py",
                   "dynamic=DynamicSpec(enabled=True)", "dynamic=DynamicSpec(enabled=False)",
                   (PREDICTABLE, "-k", "shapes")),
        HandMutant("checker.py", "input data from the case's number again", f"{PKG}/checker.py",
                   'base = case_seed("inputs", self.options.data_seed, case.key(), case.seed) % 10**9',
                   "base = case.seed", (PREDICTABLE, "-k", "rows_data")),
        HandMutant("upstream/checker.py", "speed floors not applied to upstream tasks", UPSTREAM,
                   "baseline=base, floors=_launch_floors(runner) if first else ())", "baseline=base, floors=())",
                   (PREDICTABLE, "-k", "floors")),
        HandMutant("plugin.py", "xdist workers draw data seeds of their own", f"{PKG}/plugin.py",
                   "node.workerinput[DATA_SEED_KEY] = node.config.stash[STATE].options.data_seed", "pass",
                   ("tests/harness/test_plugin.py", "-k", "one_data_seed")),
        # (No mutant drops the run's wall-clock limit: device code has no C library, so no kernel can wait
        # without CPU any more -- the CPU limit stops a spinning one; tests/sandbox tests the wall limit.)
        # -- the simulator's allocator and bounds checks (C++ headers) ---------------------------
        HandMutant("pipe.h", "audit: UB allocator ignores what is already allocated", f"{SIM}/pipe.h",
                   "if (used_[h] + bytes > l.region_bytes) {", "if (bytes > l.region_bytes) {",
                   (VIOLATIONS, "-k", "ub_")),
        HandMutant("pipe.h", "allocation not recorded", f"{SIM}/pipe.h",
                   "    used_[h] += static_cast<std::uint32_t>(bytes);\n", "", (VIOLATIONS, "-k", "ub_ or exactly")),
        HandMutant("pipe.h", "exact fill rejected (> became >=)", f"{SIM}/pipe.h",
                   "if (used_[h] + bytes > l.region_bytes) {", "if (used_[h] + bytes >= l.region_bytes) {",
                   (VIOLATIONS, "-k", "exactly")),
        HandMutant("pipe.h", "TBuf length not rounded to 32 bytes", f"{SIM}/pipe.h",
                   "    buf.loc_ = reserve(pos, rlen, 1,", "    buf.loc_ = reserve(pos, len, 1,",
                   (VIOLATIONS, "-k", "ub_ or exactly")),
        HandMutant("pipe.h", "buffer count limit dropped", f"{SIM}/pipe.h",
                   "if (buffers_ + nbuf > sim::kMaxBuffers) {", "if (false) {", (VIOLATIONS, "-k", "too_many")),
        HandMutant("pipe.h", "TBuf::Get(len) bound dropped", f"{SIM}/pipe.h",
                   "if (static_cast<std::uint64_t>(len) * sizeof(T) > len_) {", "if (false) {",
                   (VIOLATIONS, "-k", "tbuf_get")),
        HandMutant("pipe.h", "GetWithOffset bound dropped", f"{SIM}/pipe.h",
                   "if (static_cast<std::uint64_t>(bufOffset) + static_cast<std::uint64_t>(size) * sizeof(T) > len_) {",
                   "if (false) {", (VIOLATIONS, "-k", "getwithoffset")),
        HandMutant("pipe.h", "queue depth check dropped", f"{SIM}/pipe.h",
                   '    npukb::violation("TQue::AllocTensor", "queue depth exceeded',
                   '    return loc_of(0);\n    npukb::violation("TQue::AllocTensor", "queue depth exceeded',
                   (VIOLATIONS, "-k", "depth")),
        HandMutant("pipe.h", "double free accepted", f"{SIM}/pipe.h",
                   "if (o->st[l.buf_idx] == BufState::Free) npukb::violation(", "if (false) npukb::violation(",
                   (VIOLATIONS, "-k", "double_free")),
        HandMutant("tensor.h", "LocalTensor index bound off by one", f"{SIM}/tensor.h",
                   "if (index >= size_) {", "if (index > size_) {", (VIOLATIONS, "-k", "getvalue")),
        HandMutant("data_copy.h", "local tensor overrun accepted", f"{SIM}/data_copy.h",
                   "if (end_bytes > tensor_bytes || l.addr + end_bytes > l.region_bytes) {",
                   "if (l.addr + end_bytes > l.region_bytes) {", (VIOLATIONS, "-k", "overrun")),
        HandMutant("data_copy.h", "unaligned UB address accepted", f"{SIM}/data_copy.h",
                   "if (need_align && (l.addr % 32u) != 0) {", "if (false) {", (VIOLATIONS, "-k", "unaligned")),
        HandMutant("data_copy.h", "blockCount limit dropped", f"{SIM}/data_copy.h",
                   "if (count > 4095) {", "if (count > 1u << 30) {", (VIOLATIONS, "-k", "block_count")),
    ]
    # -- tables: allow-lists and forbidden names of checks.py --------------------------------------
    m += [HandMutant("checks.py", "forbidden name syscall deleted", f"{PKG}/checks.py", '("syscall",)', "()", STATIC),
          HandMutant("checks.py", "forbidden name pthread_create deleted", f"{PKG}/checks.py",
                     ', "pthread_create")', ")", STATIC)]
    for name in ("fopen", '"open"', "system", "fork", "execve", "dlopen", "getenv", "mmap", "signal",
                 "socket", "constructor", "weakref", "npukb"):
        quoted = name if name.startswith('"') else f'"{name}"'
        m.append(HandMutant("checks.py", f"forbidden name {name.strip(chr(34))} deleted", f"{PKG}/checks.py",
                            f"{quoted}, ", "", STATIC))
    m += [
        HandMutant("checks.py", "<fstream> allowed", f"{PKG}/checks.py", '"deque", ', '"deque", "fstream", ', STATIC),
        HandMutant("checks.py", "<unistd.h> allowed", f"{PKG}/checks.py", '"assert.h", ', '"assert.h", "unistd.h", ',
                   STATIC),
        HandMutant("checks.py", "any toolchain sub-path allowed", f"{PKG}/checks.py",
                   r'r"/[A-Za-z0-9_][A-Za-z0-9_/.-]*\.(h|hpp))$")', r'r"/.*)$")', STATIC),
        HandMutant("checks.py", "any pragma allowed", f"{PKG}/checks.py",
                   r'r"^(once|pack\b.*|unroll\b.*|GCC\s+unroll\b.*|GCC\s+diagnostic\b.*)$"', r'r".*"', STATIC),
        HandMutant("checks.py", "#line allowed", f"{PKG}/checks.py", '"endif", "pragma",', '"endif", "pragma", "line",',
                   STATIC),
        HandMutant("checks.py", "private is not a keyword", f"{PKG}/checks.py", "or_eq private ", "or_eq ", STATIC),
        HandMutant("checks.py", "std::thread allowed", f"{PKG}/checks.py", '"thread": "threads", ', "", STATIC),
        HandMutant("checks.py", ".init_array allowed", f"{PKG}/checks.py", "init_array|preinit_array", "preinit_array",
                   STATIC),
        HandMutant("checks.py", "digraph %: not read as #", f"{PKG}/checks.py", '{"%:": "#", "%:%:": "##"}',
                   '{"%:%:": "##"}', STATIC),
    ]
    # -- tables: every rule of the diagnostic classifier deleted in turn ---------------------------
    from npukernelbench.diagnostics import RULES

    for i, rule in enumerate(RULES):
        m.append(HandMutant("diagnostics.py", f"rule {i} deleted ({rule.category.value}: {rule.pattern.pattern[:40]})",
                            f"{PKG}/diagnostics.py", "\n\ndef _norm(text: str) -> str:",
                            f"\nRULES = RULES[:{i}] + RULES[{i + 1}:]\n\n\ndef _norm(text: str) -> str:", DIAG))
    return m


# Survivors that do not change behaviour, with the reason (key: module and mutant id, or for
# cosmic-ray mutants module, function, operator and occurrence).
_REDUNDANT = "redundant: every message it matches is matched by another rule of the same class"
EQUIVALENT: dict[tuple[str, str], str] = {
    ("diagnostics.py", "rule 9"): "redundant: g++ names a conditional in 'unterminated #...' (matched by the "
                                  "#if/#ifdef/#else rule before it)",
    ("diagnostics.py", "rule 33"): _REDUNDANT + " ('incompatible types?')",
    ("diagnostics.py", "rule 39"): _REDUNDANT + " ('non-class type')",
    ("diagnostics.py", "rule 47"): _REDUNDANT + " ('cannot allocate an object' / 'cannot declare ... to be of')",
    ("diagnostics.py", "rule 62"): _REDUNDANT + " ('abstract type')",
    ("diagnostics.py", "rule 63"): _REDUNDANT + " ('abstract type')",
    ("diagnostics.py", "rule 71"): _REDUNDANT + " ('cannot bind': clang's wording contains both)",
    ("diagnostics.py", "rule 73"): "unreachable: classify_diagnostic handles 'no matching function' before the table",
    ("diagnostics.py", "rule 74"): "unreachable: classify_diagnostic handles 'no matching constructor' first",
    ("diagnostics.py", "rule 79"): _REDUNDANT + " ('no member named')",
    ("diagnostics.py", "rule 83"): _REDUNDANT + " ('is ambiguous')",
    ("diagnostics.py", "rule 84"): _REDUNDANT + " ('is ambiguous')",
    ("diagnostics.py", "rule 93"): "unreachable: classify_diagnostic handles 'no viable overloaded' before the table",
    ("diagnostics.py", "rule 99"): _REDUNDANT + " ('not declared')",
    ("diagnostics.py", "rule 103"): _REDUNDANT + " ('undeclared')",
    ("diagnostics.py", "rule 104"): _REDUNDANT + " ('undeclared')",
    ("diagnostics.py", "rule 132"): _REDUNDANT + " ('function-definition', 'template declaration')",
    ("diagnostics.py", "rule 133"): _REDUNDANT + " ('is not allowed here')",
    ("diagnostics.py", "rule 142"): _REDUNDANT + " ('not within a switch'; 'jump to case label' is scope_lifetime)",
    ("diagnostics.py", "rule 153"): "unreachable: 'function-definition' two rules before it matches the same text",
    ("diagnostics.py", "rule 156"): _REDUNDANT + " ('non-void function')",
}


_WIDEN = "integers are compared after widening to int64 or in their own dtype: the same result for every " \
         "supported integer dtype (signed up to 64 bits, unsigned up to 32) and bool"
_STRICT = "the lengths were compared just before, so zip's strict flag cannot matter"
# cosmic-ray survivors: (module, operator, text of the mutated line) -> why it cannot change a verdict
EQUIVALENT_OPERATOR: list[tuple[str, str, str, str]] = [
    ("*", "ReplaceBinaryOperator_BitOr_BitAnd", " & None", "a type annotation (postponed evaluation): never executed"),
    ("reference_runner.py", "ReplaceTrueWithFalse", "strict=False", _STRICT),
    ("diagnostics.py", "ReplaceComparisonOperator_IsNot_Is", "is None",
     "_is_element_type is only compared with itself (element kind of one type vs the other): negating it on "
     "both sides gives the same answer"),
    ("reference_runner.py", "NumberReplacer", "spec.outputs[ -1].kind",
     "only read when the task has exactly one output, where [-1] and [0] are the same"),
    ("checker.py", "ReplaceBinaryOperator_Add_Sub", "return base * 1000 - index",
     "the input seeds stay distinct and consecutive per case; only which pseudo-random inputs are drawn changes"),
    ("evaluate.py", "NumberReplacer", "seconds=round(time.monotonic() - start, ",
     "display precision of the wall time a sample took"),
    ("evaluate.py", "NumberReplacer", "outcomes[- 0].status",
     "after a static failure the dynamic search may run, but the first failure is still the verdict"),
    ("checker.py", "NumberReplacer", "worst_abs = worst_rel = -1.0",
     "every check runs at least one seed, whose error figures (>= 0) replace the start value"),
    ("evaluate.py", "NumberReplacer", "default= ",
     "a passing sample has at least one checked case (never an empty list), so max() never uses its default"),
    ("evaluate.py", "AddNot", 'first[0] if not first else "build failed"',
     "the fallback head is only used when no diagnostic line says 'error', which g++/clang never do for a "
     "failed build"),
    ("evaluate.py", "NumberReplacer", 'first[ 1] if first else',
     "the fallback head is only used when no diagnostic line says 'error' (never for g++/clang)"),
    ("evaluate.py", "NumberReplacer", 'first[ -1] if first else',
     "the fallback head is only used when no diagnostic line says 'error' (never for g++/clang)"),
    ("evaluate.py", "ReplaceOrWithAnd", 'extract_files(completion.text and ""',
     "extract_files reads None like an empty answer: the same parse error"),
    ("evaluate.py", "NumberReplacer", "o.time_us and o.time_us > -1",
     "a zero time is already excluded by the truthiness test before it, and times are never negative"),
    ("metrics.py", "ReplaceBinaryOperator_Sub_Add", "if n + c < k:",
     "the early return is a shortcut: whenever n - c < k <= n the product has a factor 1 - k/k = 0, so the "
     "formula gives 1.0 too"),
    ("compare.py", "ReplaceComparisonOperator_Eq_NotEq", 'values.astype(np.int64) if dt.kind != "bool"', _WIDEN),
    ("compare.py", "AddNot", 'values.astype(np.int64) if not dt.kind == "bool"', _WIDEN),
    ("compare.py", "ReplaceComparisonOperator_NotEq_Eq", 'expected.astype(g.dtype) if dt.kind == "bool"', _WIDEN),
    ("compare.py", "AddNot", 'expected.astype(g.dtype) if not dt.kind != "bool"', _WIDEN),
    ("compare.py", "ReplaceTrueWithFalse", "strict=False", _STRICT),
    ("compare.py", "NumberReplacer", "if got.size == -1:",
     "empty outputs pass on either path (no element can mismatch; the error figures stay 0)"),
    ("compare.py", "NumberReplacer", "worst_abs = worst_rel = -1.0",
     "a task has at least one output (the spec loader requires it), whose figures (>= 0) replace the start value"),
]


def equivalent_reason(module: str, ident: str, detail: str = "") -> str | None:
    for (mod, prefix), reason in EQUIVALENT.items():
        if mod == module and (ident == prefix or ident.startswith(prefix + " ")):
            return reason
    added = [ln for ln in detail.splitlines() if ln.startswith("+")]
    for mod, operator, snippet, reason in EQUIVALENT_OPERATOR:
        if mod in (module, "*") and f":{operator}#" in ident and any(snippet in ln for ln in added):
            return reason
    return None


# ------------------------------------------------------------------------------------------ running

@dataclass
class Outcome:
    module: str
    ident: str
    killed: bool
    detail: str = ""
    equivalent: str | None = None


@dataclass
class Tally:
    outcomes: list[Outcome] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)
            done = len(self.outcomes)
        if done % 25 == 0:
            print(f"  ... {done} mutants run", file=sys.stderr, flush=True)


def make_copy(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".venv", ".git", "*.egg-info", ".pytest_cache",
                                    ".ruff_cache")
    dest.mkdir(parents=True)
    for name in ("src", "tests", "benchmark_cases"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


def pytest_argv(copy: Path, tests: tuple[str, ...]) -> list[str]:
    args = [a if a.startswith("-") or (i > 0 and tests[i - 1] == "-k") else str(copy / a) for i, a in enumerate(tests)]
    # only the project's plugin: hypothesis', xdist's and others' start-up would dominate short test runs
    return ["env", f"PYTHONPATH={copy / 'src'}{os.pathsep}{copy / 'tests' / 'harness'}", "PYTHONDONTWRITEBYTECODE=1",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
            "-p", "npukernelbench.plugin", "--rootdir", str(copy), *args]


def run_command(argv: list[str], timeout: float) -> tuple[bool, str]:
    """(passed, output tail)."""
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, start_new_session=True)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    return proc.returncode == 0, (proc.stdout + proc.stderr)[-1500:]


def baseline(copy: Path, commands: set[tuple[str, ...]], timeout: float) -> dict[tuple[str, ...], float]:
    """Every test command must pass unmutated (else a 'kill' would mean nothing); returns its duration."""
    durations = {}
    for tests in sorted(commands):
        start = time.monotonic()
        ok, out = run_command(pytest_argv(copy, tests), timeout)
        if not ok:                                  # once more: a loaded machine can fail a timing-bound test
            ok, out = run_command(pytest_argv(copy, tests), timeout)
        if not ok:
            sys.exit(f"baseline failed for {' '.join(tests)}:\n{out}")
        durations[tests] = time.monotonic() - start
    return durations


def cosmic_ray_items(copy: Path, target: Target, scratch: Path) -> list:
    from cosmic_ray.commands.init import init
    from cosmic_ray.work_db import WorkDB, use_db

    db_path = scratch / f"{target.name}.sqlite"
    with use_db(str(db_path), WorkDB.Mode.create) as db:
        init([copy / target.path], db, {})
        items = [item for item in db.work_items if _keep(item.mutations[0], target)]
    return items


_BINARY_KEEP = {"Add": "Sub", "Sub": "Add", "Mul": "Div", "Div": "Mul", "FloorDiv": "Mul", "Mod": "FloorDiv",
                "Pow": "Mul", "BitOr": "BitAnd", "BitAnd": "BitOr", "BitXor": "BitOr", "LShift": "RShift",
                "RShift": "LShift"}
_COMPARE_KEEP = {("Eq", "NotEq"), ("NotEq", "Eq"), ("Lt", "LtE"), ("Lt", "GtE"), ("LtE", "Lt"), ("LtE", "Gt"),
                 ("Gt", "GtE"), ("Gt", "LtE"), ("GtE", "Gt"), ("GtE", "Lt"), ("Is", "IsNot"), ("IsNot", "Is"),
                 ("In", "NotIn"), ("NotIn", "In")}


def _keep(mutation, target: Target) -> bool:
    op = mutation.operator_name.removeprefix("core/")
    parts = op.split("_")
    if op.startswith("ReplaceBinaryOperator_") and _BINARY_KEEP.get(parts[1]) != parts[2]:
        return False
    if op.startswith("ReplaceComparisonOperator_") and (parts[1], parts[2]) not in _COMPARE_KEEP:
        return False
    if op.startswith("ReplaceUnaryOperator_") and not op.startswith("ReplaceUnaryOperator_Delete"):
        return False
    if target.definitions:
        return (mutation.definition_name or "") in target.definitions    # "": module level
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", nargs="*", help="module names (compare.py, pipe.h, ...); default: all")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested in parallel (one repository copy each)")
    parser.add_argument("--timeout-factor", type=float, default=4.0, help="test timeout = factor x baseline + 30 s")
    parser.add_argument("--no-cosmic-ray", action="store_true", help="hand-made mutants only")
    parser.add_argument("--json", type=Path, help="write every mutant's outcome here")
    parser.add_argument("--from-json", type=Path, nargs="*", help="only print the table of earlier --json runs")
    parser.add_argument("--retest", type=Path, help="an earlier --json run of the same sources: keep its killed "
                                                    "mutants, test only its survivors again")
    args = parser.parse_args()
    if args.from_json:
        outcomes = [Outcome(**row) for path in args.from_json for row in json.loads(path.read_text())]
        for o in outcomes:                      # explanations may have been added since
            o.equivalent = None if o.killed else equivalent_reason(o.module, o.ident, o.detail)
        report(outcomes, None)
        return

    wanted = set(args.modules or [])
    targets = [t for t in TARGETS if not wanted or t.name in wanted] if not args.no_cosmic_ray else []
    hand = [h for h in _hand_made() if not wanted or h.module in wanted]
    scratch = Path(tempfile.mkdtemp(prefix="npukb-mutation-"))
    try:
        copies: Queue[Path] = Queue()
        for j in range(max(1, args.jobs)):
            copies.put(make_copy(scratch / f"copy{j}"))
        first = scratch / "copy0"
        commands = {t.tests for t in targets} | {h.tests for h in hand}
        print(f"baseline: {len(commands)} test commands", file=sys.stderr, flush=True)
        durations = baseline(first, commands, timeout=900)
        tally = Tally()

        def timeout_for(tests: tuple[str, ...]) -> float:
            return args.timeout_factor * durations[tests] + 30

        previous = [Outcome(**row) for row in json.loads(args.retest.read_text())] if args.retest else []
        killed_before = {(o.module, o.ident): o for o in previous if o.killed}
        jobs: list = []
        for target in targets:                  # a mutant killed before (same place, same code) is not run again
            for item in cosmic_ray_items(first, target, scratch):
                key = (target.name, _ident(item.mutations[0]))
                if key in killed_before:
                    tally.outcomes.append(killed_before[key])
                else:
                    jobs.append(("cr", target, item))
        for h in hand:
            if (h.module, h.id) in killed_before:
                tally.outcomes.append(killed_before[(h.module, h.id)])
            else:
                jobs.append(("hand", h, None))
        print(f"{len(jobs)} mutants", file=sys.stderr, flush=True)

        def run_one(job) -> None:
            kind, what, item = job
            copy = copies.get()
            try:
                if kind == "cr":
                    tally.add(_run_cosmic_ray(copy, first, what, item, timeout_for(what.tests)))
                else:
                    tally.add(_run_hand(copy, what, timeout_for(what.tests)))
            finally:
                copies.put(copy)

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(run_one, jobs))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report(tally.outcomes, args.json)


def _run_cosmic_ray(copy: Path, first: Path, target: Target, item, timeout: float) -> Outcome:
    import attrs
    from cosmic_ray.mutating import mutate_and_test
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    spec = item.mutations[0]
    local = attrs.evolve(spec, module_path=copy / Path(spec.module_path).relative_to(first))
    command = " ".join(pytest_argv(copy, target.tests))
    result = mutate_and_test([local], command, timeout)
    ident = _ident(spec)
    if result.worker_outcome is WorkerOutcome.NO_TEST:
        return Outcome(target.name, ident, True, "no mutation possible", equivalent="no mutation possible")
    killed = result.test_outcome is not TestOutcome.SURVIVED
    diff = "\n".join(ln for ln in (result.diff or "").splitlines() if ln.startswith(("+", "-"))
                     and not ln.startswith(("+++", "---")))
    reason = None if killed else equivalent_reason(target.name, ident, diff)
    return Outcome(target.name, ident, killed, diff, reason)


def _ident(spec) -> str:
    operator = spec.operator_name.removeprefix("core/")
    return f"{spec.definition_name}:{operator}#{spec.occurrence} line {spec.start_pos[0]}"


def _run_hand(copy: Path, mutant: HandMutant, timeout: float) -> Outcome:
    path = copy / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.old) != 1:
        return Outcome(mutant.module, mutant.id, False, f"STALE: the text to mutate occurs {original.count(mutant.old)}"
                                                        " times; update HAND_MADE")
    try:
        path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
        passed, out = run_command(pytest_argv(copy, mutant.tests), timeout)
    finally:
        path.write_text(original, encoding="utf-8")
    killed = not passed
    return Outcome(mutant.module, mutant.id, killed, "" if killed else out[-300:],
                   None if killed else equivalent_reason(mutant.module, mutant.id))


def report(outcomes: list[Outcome], json_path: Path | None) -> None:
    outcomes = [o for o in outcomes if o.equivalent != "no mutation possible"]
    order = [t.name for t in TARGETS] + ["toolchain.py", "pipe.h", "tensor.h", "data_copy.h"]
    modules = sorted({o.module for o in outcomes}, key=lambda m: order.index(m) if m in order else len(order))
    header = f"{'module':<22}{'mutants':>9}{'killed':>8}{'survivors':>11}{'equivalent':>12}{'score':>9}"
    print(header)
    print("-" * len(header))
    total = [0, 0, 0, 0]
    for module in modules:
        rows = [o for o in outcomes if o.module == module]
        killed = sum(o.killed for o in rows)
        equivalent = sum(1 for o in rows if not o.killed and o.equivalent)
        survivors = len(rows) - killed - equivalent
        scored = len(rows) - equivalent
        print(f"{module:<22}{len(rows):>9}{killed:>8}{survivors:>11}{equivalent:>12}"
              f"{100 * killed / scored if scored else 100:>8.1f}%")
        for i, v in enumerate((len(rows), killed, survivors, equivalent)):
            total[i] += v
    scored = total[0] - total[3]
    print("-" * len(header))
    print(f"{'verdict path':<22}{total[0]:>9}{total[1]:>8}{total[2]:>11}{total[3]:>12}"
          f"{100 * total[1] / scored if scored else 100:>8.1f}%")
    print("score = killed / (mutants - equivalent); raw killed share "
          f"{100 * total[1] / total[0] if total[0] else 100:.1f}%")
    live = [o for o in outcomes if not o.killed and not o.equivalent]
    if live:
        print("\nsurvivors (need a test or an EQUIVALENT entry):")
        for o in live:
            print(f"  {o.module} {o.ident}\n    {o.detail.replace(chr(10), chr(10) + '    ')[:400]}")
    eq = [o for o in outcomes if not o.killed and o.equivalent]
    if eq:
        print("\nequivalent mutants:")
        for o in eq:
            print(f"  {o.module} {o.ident}: {o.equivalent}")
    if json_path:
        json_path.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))


if __name__ == "__main__":
    main()

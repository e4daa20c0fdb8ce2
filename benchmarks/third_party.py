"""How far a third-party AscendC corpus (cann-ops, EvoKernel) gets on ascendc-sim, layer by layer.

    python benchmarks/third_party.py [PATH] [--jobs N] [--layers compile|all] [-k SUBSTR]
                                     [--min-kernel-compile N] [--json OUT] [--resume]

PATH (default ``../shared/third-party-ascendc``) holds operator folders (``op_host/`` + ``op_kernel/``).
Every operator goes through the project's own machinery, unchanged code, every build and run confined:

1. **host compiles**: ``describe`` of the op project (every ``op_host`` source CANN's tiling build
   compiles, linked and run: the OpDefs it registers);
2. **kernel compiles**: ``build`` of the kernel named after the OpDef (its first DataType column, or
   the one the inputs need);
3. **tiling runs**, 4. **runs cleanly**, 5. **matches the golden**, on inputs derived from what the
   operator ships (``--layers all``): cann-ops from its example (``gen_data.py`` for inputs and
   golden, its ``main.cpp`` run against the simulator's aclnn shim for shapes, dtypes and
   attributes, ``verify_result.py`` for the verdict); EvoKernel from its PyTorch reference
   (``get_inputs`` / ``get_init_inputs``, scaled down when huge, reported) through its own
   ``CppExtension`` binding, judged with ``torch.allclose(atol=rtol=1e-2)``. An operator whose
   inputs cannot be derived skips those layers and says why.

Printed: a table per source and totals (operators reaching each layer), then the blockers: the first
failing layer of every operator with a normalised diagnostic, grouped, counted, each marked *ours*
(the simulator's), *code* (the code's own) or *limit* (beyond the benchmark's budget) by the rule
table of ``third_party_blockers.py``. ``--min-kernel-compile N`` exits 1 when fewer than N kernels
compile (a floor for CI). ``--json OUT`` writes every record; with ``--resume`` the operators already
in OUT are kept and skipped.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from third_party_blockers import Facts, blocker, classify, documented_names, repo_facts
from third_party_corpus import SOURCE_SUFFIXES, Operator, find_operators, load_operator, pair_kernel

DEFAULT_PATH = Path("../shared/third-party-ascendc")
DEFAULT_API_DOCS = Path("../shared/asc-devkit-docs/docs/api")
LAYERS = ("host_built", "kernel_built", "tiling_ran", "ran_cleanly", "matched")
LAYER_TITLES = {"host_built": "host compiles", "kernel_built": "kernel compiles", "tiling_ran": "tiling runs",
                "ran_cleanly": "runs cleanly", "matched": "matches golden"}


def evaluate_operator(root: str, name: str, layers: str) -> dict[str, Any]:
    """One operator's record (run in a worker process)."""
    from npukernelbench.infrastructure import InfrastructureError
    from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
    from npukernelbench.toolchains.base import KernelProject, ParamSlot

    start = time.monotonic()
    op = load_operator(Path(root), Path(root) / name)
    record: dict[str, Any] = {"operator": op.name, "source": op.source, "reached": [], "failed": None,
                              "message": "", "inputs": None}
    toolchain = AscendCSimToolchain()

    def done(failed: str | None, message: str = "") -> dict[str, Any]:
        record.update(failed=failed, message=message.strip()[-4000:], seconds=round(time.monotonic() - start, 1))
        return record

    try:
        described = toolchain.describe(KernelProject(op="", kernel="", files=op.files, params=()))
        if not described.ok:
            return done("host_built", described.diagnostics)
        record["reached"].append("host_built")
        pairing = pair_kernel([s.op for s in described.signatures], op.kernel_files(), op.short)
        if pairing.problem:
            return done("kernel_built", pairing.problem)
        record.update(op=pairing.op, kernel=pairing.kernel)
        sig = described.signature(pairing.op)
        assert sig is not None
        params = tuple(ParamSlot(p.name, role, p.param_type, _dtype(p.dtypes, 0))
                       for role, decls in (("input", sig.inputs), ("output", sig.outputs)) for p in decls)
        build = toolchain.build(KernelProject(op=pairing.op, kernel=pairing.kernel, files=op.files, params=params))
        if not build.ok:
            return done("kernel_built", build.diagnostics)
        record["reached"].append("kernel_built")
        if layers != "all":
            return done(None)
        from third_party_runs import end_to_end_runner

        runner = end_to_end_runner(op, sig, pairing.kernel, toolchain)
        if runner.skip:
            record["inputs"] = runner.skip
            return done(None)
        outcome = runner.run()
        record["inputs"] = outcome.inputs
        record["reached"].extend(outcome.reached)
        return done(outcome.failed, outcome.message)
    except InfrastructureError as exc:
        record["infrastructure"] = True
        return done(_next_layer(record["reached"]), f"infrastructure failure (not counted): {exc}")
    except Exception as exc:                 # noqa: BLE001 - our own bug: reported, never hidden
        record["harness_error"] = True
        return done(_next_layer(record["reached"]), f"harness error: {type(exc).__name__}: {exc}")


def _dtype(dtypes: tuple[str, ...], column: int) -> str:
    if not dtypes:
        return "float32"
    return dtypes[min(column, len(dtypes) - 1)] or "float32"


def _next_layer(reached: list[str]) -> str:
    return LAYERS[len(reached)] if len(reached) < len(LAYERS) else LAYERS[-1]


def evaluate_all(root: Path, names: list[str], jobs: int, layers: str, done: list[dict[str, Any]],
                 journal: Path | None) -> list[dict[str, Any]]:
    """Every operator's record; one progress line per operator (with an ETA) on stderr. A record is
    appended to ``journal`` as it arrives, so a killed run resumes where it stopped."""
    records = list(done)
    pending, deaths = list(names), collections.Counter[str]()
    total, start, finished = len(names) + len(done), time.monotonic(), 0
    while pending:
        retry: list[str] = []
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(evaluate_operator, str(root), name, layers): name for name in pending}
            for future in as_completed(futures):
                name = futures[future]
                try:
                    record = future.result()
                except BrokenProcessPool:
                    deaths[name] += 1
                    if deaths[name] < 2:
                        retry.append(name)
                        continue
                    record = {"operator": name, "source": name.split("/")[0], "reached": [], "failed": "host_built",
                              "message": "harness error: the worker process evaluating this operator died",
                              "harness_error": True}
                records.append(record)
                finished += 1
                if journal is not None:
                    with journal.open("a", encoding="utf-8") as fh:
                        fh.write(json.dumps(record) + "\n")
                elapsed = time.monotonic() - start
                eta = elapsed / finished * (len(names) - finished)
                state = "passed" if record.get("failed") is None and len(record["reached"]) == len(LAYERS) else \
                    (f"stops at {LAYER_TITLES[record['failed']]}" if record.get("failed") else
                     f"reached {LAYER_TITLES[record['reached'][-1]]}" if record["reached"] else "?")
                print(f"[{len(records)}/{total}] {record['operator']}: {state} ({record.get('seconds', 0):.0f} s; "
                      f"ETA {eta / 60:.0f} min)", file=sys.stderr, flush=True)
        pending = retry
    return records


def load_journal(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    records = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            records[record["operator"]] = record
    return list(records.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, nargs="?", default=DEFAULT_PATH,
                        help=f"the corpus (default {DEFAULT_PATH})")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--layers", choices=("compile", "all"), default="all",
                        help="compile: host and kernel compile only; all: also tiling, run and golden (default)")
    parser.add_argument("-k", dest="keyword", default="", help="only operators whose path contains this text")
    parser.add_argument("--min-kernel-compile", type=int, default=None,
                        help="exit 1 when fewer kernels compile")
    parser.add_argument("--json", type=Path, default=None, help="write every operator's record to this file")
    parser.add_argument("--api-docs", type=Path, default=DEFAULT_API_DOCS,
                        help=f"the AscendC API reference, to tell documented names apart (default {DEFAULT_API_DOCS})")
    parser.add_argument("--resume", action="store_true",
                        help="keep the operators already recorded in --json's journal (OUT.partial) and skip them")
    args = parser.parse_args(argv)

    if not args.path.exists():
        print(f"third_party: {args.path} does not exist", file=sys.stderr)
        return 2
    operators = find_operators(args.path, args.keyword)
    if not operators:
        print(f"third_party: no operator folders (op_host/ + op_kernel/) under {args.path}", file=sys.stderr)
        return 2
    root = _root(args.path, operators)
    journal = args.json.with_name(args.json.name + ".partial") if args.json else None
    done = []
    if journal is not None:
        if args.resume:
            wanted = {o.name for o in operators}
            done = [r for r in load_journal(journal) if r["operator"] in wanted and not r.get("infrastructure")
                    and r.get("layers", args.layers) == args.layers]
        journal.write_text("".join(json.dumps(r) + "\n" for r in done), encoding="utf-8")
    todo = [o.name for o in operators if o.name not in {r["operator"] for r in done}]
    start = time.monotonic()
    records = evaluate_all(root, todo, max(1, args.jobs), args.layers, done, journal)
    for r in records:
        r["layers"] = args.layers
    records.sort(key=lambda r: r["operator"])
    annotate(records, root, operators, documented_names(args.api_docs))
    report(records, args.layers, time.monotonic() - start)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
        if journal is not None:
            journal.unlink(missing_ok=True)
    kernels = sum(1 for r in records if "kernel_built" in r["reached"])
    if args.min_kernel_compile is not None and kernels < args.min_kernel_compile:
        print(f"FLOOR MISSED: {kernels} kernels compile, the floor is {args.min_kernel_compile}")
        return 1
    return 0


def _root(path: Path, operators: list[Operator]) -> Path:
    """The folder operator names are relative to."""
    first = operators[0]
    return Path(str(first.folder)[: -len(first.name)].rstrip("/")) if str(first.folder).endswith(first.name) \
        else path.resolve()


def annotate(records: list[dict[str, Any]], root: Path, operators: list[Operator],
             api_names: frozenset[str] = frozenset()) -> None:
    """Every failed record gets its blocker line and its owner (ours / code / limit) with the reason."""
    folders = {o.name: o.folder for o in operators}
    repos: dict[Path, Path] = {}
    facts_of: dict[Path, Facts] = {}
    for r in records:
        if r.get("failed") is None:
            continue
        folder = folders.get(r["operator"])
        layer = r["failed"]
        line = blocker(r.get("message", ""))
        r["blocker"] = line
        if r.get("infrastructure") or r.get("harness_error"):
            r["owner"], r["reason"] = "ours", "the benchmark's own machinery failed"
            continue
        facts = Facts(api_names=api_names)
        if folder is not None:
            repo = repos.setdefault(folder, _repository(root, folder))
            if repo not in facts_of:
                facts_of[repo] = repo_facts(repo, folder, SOURCE_SUFFIXES)
            base = facts_of[repo]
            own = folder.relative_to(repo).as_posix() + "/"
            facts = Facts(tuple(f for f in base.repo_files if not f.startswith(own)), base.repo_text,
                          tuple(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()), api_names)
        r["owner"], r["reason"] = classify(layer, line, facts)


def _repository(root: Path, folder: Path) -> Path:
    """The repository an operator comes from: the first folder under the corpus root (cann-ops, EvoKernel)."""
    rel = folder.relative_to(root).parts
    top = root / rel[0]
    if rel[0] == "ops" and len(rel) > 1:
        top = root / rel[0] / rel[1]
    return top


def report(records: list[dict[str, Any]], layers: str, seconds: float) -> None:
    shown = LAYERS if layers == "all" else LAYERS[:2]
    sources = sorted({r["source"] for r in records})
    counts = ", ".join(f"{s} {sum(r['source'] == s for r in records)}" for s in sources)
    print(f"operators: {len(records)} ({counts}); {seconds:.0f} s")
    header = f"  {'layer':<16}" + "".join(f"{s:>14}" for s in sources) + f"{'total':>14}"
    print("\noperators reaching each layer:\n" + header)
    for layer in shown:
        row = f"  {LAYER_TITLES[layer]:<16}"
        for group in [*([r for r in records if r["source"] == s] for s in sources), records]:
            n = sum(1 for r in group if layer in r["reached"])
            cell = f"{n}/{len(group)} ({100 * n / max(1, len(group)):.0f}%)"
            row += f"{cell:>14}"
        print(row)
    if layers == "all":
        with_inputs = [r for r in records if "kernel_built" in r["reached"] and r.get("inputs") not in
                       (None, "no inputs derivable") and not str(r.get("inputs", "")).startswith("no inputs")]
        row = f"  {'with inputs':<16}"
        for group in [*([r for r in with_inputs if r["source"] == s] for s in sources), with_inputs]:
            n = sum(1 for r in group if "matched" in r["reached"])
            cell = f"{n}/{len(group)}"
            row += f"{cell:>14}"
        print(row + "   (matched / kernels that compiled and could be fed inputs)")
        skipped = collections.Counter(str(r["inputs"]) for r in records
                                      if "kernel_built" in r["reached"] and str(r.get("inputs", "")).startswith("no "))
        if skipped:
            print("\nkernels that compiled but could not be fed inputs:")
            for why, n in skipped.most_common():
                print(f"  {n:>3}  {why}")
    groups: dict[tuple[str, str, str], list[str]] = collections.defaultdict(list)
    for r in records:
        if r.get("failed") is None:
            continue
        groups[(r.get("owner", "?"), r["failed"], r.get("blocker", ""))].append(r["operator"])
    if groups:
        print("\nblockers (first failing layer, normalised; owner: ours = the simulator's, code = the code's own, "
              "limit = beyond the budget):")
        for (owner, layer, line), ops in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            names = ", ".join(o.rsplit("/", 1)[-1] for o in ops[:5]) + (", ..." if len(ops) > 5 else "")
            reason = next(r.get("reason", "") for r in records if r["operator"] == ops[0])
            print(f"  {len(ops):>3}  [{owner}] {LAYER_TITLES.get(layer, layer)}: {line}\n"
                  f"       {names}\n       why {owner}: {reason}")
    owners = collections.Counter(r.get("owner") for r in records if r.get("failed") is not None)
    print(f"\nfailed operators by owner: ours {owners.get('ours', 0)}, the code's own {owners.get('code', 0)}, "
          f"limit {owners.get('limit', 0)}")


if __name__ == "__main__":
    sys.exit(main())

"""``npukb``: the benchmark outside pytest. Subcommands live in ``COMMANDS`` (name -> (add_arguments,
run)); other modules can add theirs (e.g. ``serve``, ``export-completions``) with :func:`register`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from npukernelbench.options import RunOptions, add_argparse_options

Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
COMMANDS: dict[str, Command] = {}


def register(name: str, help_text: str, add_arguments: Callable[[argparse.ArgumentParser], None],
             run: Callable[[argparse.Namespace], int]) -> None:
    COMMANDS[name] = (help_text, add_arguments, run)


def _evaluate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["benchmark_cases"], help="case roots or case folders (either layout)")
    add_argparse_options(p, skip=("--npukb-cases",))


def _evaluate(ns: argparse.Namespace) -> int:
    from npukernelbench.cases import discover
    from npukernelbench.evaluate import BaselineCache, evaluate
    from npukernelbench.generation import ensure_completions
    from npukernelbench.options import load_toolchain
    from npukernelbench.store import RunDir

    ns.npukb_cases = ()
    options = RunOptions.from_namespace(ns)
    specs = discover(ns.paths)
    if not specs:
        print(f"npukb: no cases found under {', '.join(ns.paths)}", file=sys.stderr)
        return 2
    toolchain = load_toolchain(options.toolchain)
    reason = toolchain.unavailable_reason()
    if reason:
        print(f"npukb: toolchain {options.toolchain!r} unavailable: {reason}", file=sys.stderr)
        return 2
    run = RunDir(options.out)
    run.create(fresh=not options.resume)
    run.write_header({"model": options.model, "toolchain": options.toolchain, "samples_per_task": options.samples,
                      "shapes": options.shapes, "shape_examples": options.shape_examples, "seed": options.seed})
    completions = ensure_completions(specs, options, run)
    done = run.finished() if options.resume else set()
    baseline = BaselineCache()
    for spec in specs:
        for i in range(options.samples):
            if (spec.case_id, i) in done:
                continue
            completion = completions[(spec.case_id, i)]
            result = evaluate(spec, completion, toolchain, options.eval_options(), baseline)
            if completion.meta.get("label"):
                result.details["expected_category"] = completion.meta["label"]
            run.append_result(result)
            print(f"{spec.case_id}[s{i}] {result.status.value}"
                  f"{' (' + result.error_category.value + ')' if result.error_category else ''}", flush=True)
    return _write_summary(run, options.model, options.toolchain, options.samples)


def _write_summary(run, model: str, toolchain: str, samples: int) -> int:
    """summary.json + report.md of a run directory, and the table on stdout."""
    from npukernelbench.metrics import label_agreement, summarize
    from npukernelbench.report import markdown, terminal_lines

    results = run.results()
    kind = next((r.speed_kind for r in results if r.speed_kind), None)
    summary = summarize(results, model, toolchain, samples, kind)
    extra = []
    agreement = label_agreement(results)
    if agreement:
        summary["mutant_label_agreement"] = agreement
        extra.append(f"mutant label agreement (build errors): {agreement['agree']}/{agreement['labelled']} = "
                     f"{100 * agreement['rate']:.1f}%")
    run.write_summary(summary)
    run.write_report(markdown(summary, results, extra))
    print("\n".join(terminal_lines(summary, extra)))
    return 0


def _report_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, help="a run directory (with results.jsonl)")


def _report(ns: argparse.Namespace) -> int:
    from npukernelbench.store import RESULTS, RunDir

    run = RunDir(ns.run_dir)
    if not (run.path / RESULTS).is_file():
        print(f"npukb: {run.path} holds no {RESULTS} (is it a run directory?)", file=sys.stderr)
        return 2
    header = run.header()
    samples = int(header.get("samples_per_task") or max((r.sample for r in run.results()), default=0) + 1)
    return _write_summary(run, header.get("model", "?"), header.get("toolchain", "?"), samples)


PASSTHROUGH: dict[str, str] = {}


def _passthrough(name: str, help_text: str, module: str) -> None:
    """A subcommand whose module parses its own arguments (``main(argv) -> int``)."""
    PASSTHROUGH[name] = module

    def add_arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("args", nargs=argparse.REMAINDER, help=f"see npukb {name} --help")

    def run(ns: argparse.Namespace) -> int:
        return _run_passthrough(name, ns.args)

    register(name, help_text, add_arguments, run)


def _run_passthrough(name: str, argv: Sequence[str]) -> int:
    import importlib

    return importlib.import_module(PASSTHROUGH[name]).main(list(argv))


register("evaluate", "generate completions and evaluate them (no pytest)", _evaluate_args, _evaluate)
register("report", "rebuild summary.json/report.md of a run directory and print the table", _report_args, _report)
_passthrough("serve", "serve a local model over an OpenAI-compatible HTTP API (transformers, or --engine vllm)",
             "npukernelbench.serve")
_passthrough("export-completions", "write a replay file from a run directory's completions", "npukernelbench.export")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in PASSTHROUGH:
        return _run_passthrough(args[0], args[1:])
    parser = argparse.ArgumentParser(prog="npukb", description="NPUKernelBench command line")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, add_arguments, _) in COMMANDS.items():
        add_arguments(sub.add_parser(name, help=help_text))
    ns = parser.parse_args(args)
    try:
        return COMMANDS[ns.command][2](ns)
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"npukb {ns.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

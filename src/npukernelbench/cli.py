"""``npukb``: the benchmark outside pytest. Subcommands live in ``COMMANDS`` (name -> (add_arguments,
run)); other modules can add theirs (e.g. ``serve``, ``export-completions``) with :func:`register`."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from npukernelbench.data_seed import recorded_data_seed
from npukernelbench.interruption import (
    EXIT_INTERRUPTED,
    Progress,
    interrupted_line,
    recorded_interruption,
    resume_command,
)
from npukernelbench.options import RunOptions, add_argparse_options
from npukernelbench.soc_profiles import PROFILES
from npukernelbench.store import RunDir

Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
COMMANDS: dict[str, Command] = {}


def register(name: str, help_text: str, add_arguments: Callable[[argparse.ArgumentParser], None],
             run: Callable[[argparse.Namespace], int]) -> None:
    COMMANDS[name] = (help_text, add_arguments, run)


def _evaluate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["benchmark_cases"], help="case roots or case folders (any layout)")
    p.add_argument("-k", dest="keyword", default="", help="only samples matching this pytest -k expression")
    p.add_argument("-m", dest="markexpr", default="", help="only samples matching this pytest -m expression "
                   "(level1, a category, static/dynamic)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="samples evaluated in parallel (worker processes)")
    p.add_argument("--strict", action="store_true", help="samples missing from a replay file are an error "
                   "(default: a warning, and they are left out)")
    add_argparse_options(p, skip=("--npukb-cases",))


def _selected(ns: argparse.Namespace, options: RunOptions) -> list[tuple[object, int]]:
    """(spec, sample) pairs under the paths that -k and -m select; exits 2 when there are none."""
    from npukernelbench.cases import discover
    from npukernelbench.selection import Selection

    missing = [p for p in ns.paths if not Path(p).exists()]
    if missing:
        raise ValueError(f"no such path: {', '.join(missing)}")
    from npukernelbench.modes import expand_all

    specs = expand_all(discover(ns.paths), options.mode)
    if not specs:
        raise ValueError(f"no cases found under {', '.join(ns.paths)} (case folders hold case.toml, or the public "
                         "layout's api_desc.md and validation/)")
    selection = Selection(ns.keyword, ns.markexpr, options.shapes)
    chosen = [(spec, i) for spec in specs for i in range(options.samples) if selection.selects(spec, i)
              and (options.shard is None or options.shard.holds(spec.case_id))]
    if not chosen:
        raise ValueError(f"-k {ns.keyword!r} / -m {ns.markexpr!r} select none of the {len(specs)} cases")
    return chosen


def _eta(started: float, done: int, total: int) -> str:
    """``" (m:ss elapsed, about m:ss left)"`` after ``done`` of ``total`` samples (an estimate: the wall
    time per finished sample so far, workers included, times the samples left); nothing at the end."""
    from npukernelbench.run_progress import clock, time_left

    if done >= total:
        return ""
    elapsed = time.monotonic() - started
    return f" ({clock(elapsed)} elapsed, about {clock(time_left(elapsed, done, total))} left)"


def _evaluate(ns: argparse.Namespace) -> int:
    from npukernelbench.confinement import confinement_level
    from npukernelbench.generation import check_replay, ensure_completions
    from npukernelbench.options import load_toolchain
    from npukernelbench.parallel_eval import evaluate_all

    ns.npukb_cases = ()
    if ns.jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got {ns.jobs}")
    options = RunOptions.from_namespace(ns)
    if options.resume and options.data_seed is None:      # a resumed run keeps its data seed
        options = options.with_data_seed(recorded_data_seed(RunDir(options.out)))
    options = options.with_data_seed()
    if options.html:
        from npukernelbench.report_plots import require_matplotlib

        require_matplotlib()
    chosen = _selected(ns, options)
    toolchain = load_toolchain(options.toolchain)
    reason = toolchain.unavailable_reason()
    if reason:
        raise ValueError(f"toolchain {options.toolchain!r} cannot run here: {reason}")
    specs = list({spec.case_id: spec for spec, _ in chosen}.values())
    level = confinement_level()
    print(f"npukb evaluate: model={options.model} toolchain={options.toolchain} samples={options.samples} "
          f"shapes={options.shapes} tasks={len(specs)} items={len(chosen)} jobs={ns.jobs} confinement={level} "
          f"out={options.out}", flush=True)
    print(f"npukb evaluate: input data seed {options.data_seed} (replay this run's data with --npukb-data-seed="
          f"{options.data_seed})", flush=True)
    note = check_replay(specs, options)
    if note:
        print(f"npukb evaluate: {note}", flush=True)
    prepare = getattr(toolchain, "prepare", None)
    if callable(prepare):
        prepare(specs, lambda line: print(line, flush=True))
    from npukernelbench.run_summary import run_socs

    run = RunDir(options.out)
    run.create(fresh=False)
    completions = ensure_completions(specs, options, run, strict=ns.strict)
    if not options.resume:
        run.start_fresh()
    run.write_header({"model": options.model, "toolchain": options.toolchain, "samples_per_task": options.samples,
                      "shapes": options.shapes, "shape_examples": options.shape_examples,
                      "shape_seed": options.shape_seed, "data_seed": options.data_seed, "seed": options.seed,
                      "confinement": level, "socs": run_socs(specs, options.soc),
                      **({"turns": options.turns} if options.turns > 1 else {})})
    done = run.finished() if options.resume else set()
    absent = [(spec.case_id, i) for spec, i in chosen if completions[(spec.case_id, i)].meta.get("missing")]
    if absent:
        print(f"npukb evaluate: warning: {len(absent)} sample(s) with no completion (missing from the replay "
              "file, or no expert answer) are left out (--strict makes this an error)", file=sys.stderr)
    work = [(spec, completions[(spec.case_id, i)]) for spec, i in chosen
            if (spec.case_id, i) not in done and (spec.case_id, i) not in absent]
    failures: list[dict] = []
    outcomes = evaluate_all(work, options, ns.jobs)
    interrupted = False
    ns.evaluating = True
    started = time.monotonic()
    try:
        for n, (spec, completion, outcome) in enumerate(outcomes, start=1):
            name = f"[{n}/{len(work)}] {spec.case_id}[s{completion.sample}]"
            eta = _eta(started, n, len(work))
            if isinstance(outcome, str):            # no outcome: our machinery or the case failed
                failures.append({"task": spec.case_id, "sample": completion.sample, "cause": outcome})
                print(f"{name} ERROR {outcome}{eta}", file=sys.stderr, flush=True)
                continue
            if completion.meta.get("label"):
                outcome.details["expected_category"] = completion.meta["label"]
            run.append_result(outcome if options.turns == 1 else dataclasses.replace(outcome, turn=1))
            print(f"{name} {outcome.status.value}"
                  f"{' (' + outcome.error_category.value + ')' if outcome.error_category else ''}{eta}", flush=True)
    except KeyboardInterrupt:                   # Ctrl-C: what finished is in results.jsonl; say how far it got
        interrupted = True
    finally:
        outcomes.close()                        # stops the worker processes of an interrupted run
    planned = {(spec.case_id, i) for spec, i in chosen} - set(absent)
    if options.turns > 1 and not interrupted:
        from npukernelbench.repair import run_turns

        try:
            run_turns({s.case_id: s for s in specs}, planned, options, run, ns.jobs,
                      lambda line: print(line, flush=True), failures)
        except KeyboardInterrupt:
            interrupted = True
    progress = Progress(len(planned & run.finished()), len(planned), interrupted)
    _write_summary(run, options.model, options.toolchain, options.samples, failures, absent, level, progress,
                   options.turns)
    if options.html:
        from npukernelbench.html_report import write_run_html

        print(f"html report: {write_run_html(run.path)}")
    if interrupted:
        sys.stdout.flush()
        command = resume_command("npukb", getattr(ns, "argv", None) or sys.argv[1:])
        print(interrupted_line("npukb evaluate", progress, run.path, command), file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    if failures:
        print(f"npukb evaluate: {len(failures)} sample(s) have no outcome (infrastructure failures or broken "
              "cases, listed above; not counted); rerun with --npukb-resume", file=sys.stderr)
        return 1
    return 0


def _write_summary(run, model: str, toolchain: str, samples: int, failures: Sequence[dict] = (),
                   missing: Sequence[tuple[str, int]] = (), confinement: str | None = None,
                   progress: Progress | None = None, turns: int = 1) -> int:
    """summary.json + report.md of a run directory, and the table on stdout (the plugin's own end of a
    run: run_summary); ``turns`` > 1: with the multi-turn repair metrics."""
    from npukernelbench.run_summary import build_summary, write_summary

    done = build_summary(run.results(), model, toolchain, samples, confinement or run.header().get("confinement"),
                         failures=failures, missing=missing, progress=progress, turns=turns,
                         turn_results=run.turn_results() if turns > 1 else ())
    write_summary(run, done)
    print("\n".join(done.terminal_lines()))
    return 0


def _report_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="a run directory (with results.jsonl); several: the shard directories of one run "
                        "(--npukb-shard K/N), merged into --out")
    p.add_argument("--out", type=Path, default=None, help="the merged run directory (needed with several RUN_DIRs)")
    p.add_argument("--html", nargs="?", const=True, default=None, metavar="PATH",
                   help="also write a self-contained HTML report (default RUN_DIR/report.html; needs the "
                        "'report' extra)")


def _report(ns: argparse.Namespace) -> int:
    from npukernelbench.store import RESULTS, RunDir

    failures: list[dict] = []
    if len(ns.run_dirs) > 1 or ns.out is not None:
        from npukernelbench.shard_merge import merge_runs

        if ns.out is None:
            print("npukb report: several run directories are merged into one: name it with --out DIR",
                  file=sys.stderr)
            return 2
        run, failures = merge_runs(ns.run_dirs, ns.out)
        print(f"merged {len(ns.run_dirs)} run directories into {run.path}")
    else:
        run = RunDir(ns.run_dirs[0])
    if not (run.path / RESULTS).is_file():
        print(f"npukb: {run.path} holds no {RESULTS} (is it a run directory?)", file=sys.stderr)
        return 2
    if ns.html is not None:
        from npukernelbench.report_plots import require_matplotlib

        require_matplotlib()
    header = run.header()
    samples = int(header.get("samples_per_task") or max((r.sample for r in run.results()), default=0) + 1)
    code = _write_summary(run, header.get("model", "?"), header.get("toolchain", "?"), samples, failures=failures,
                          progress=recorded_interruption(run.path) if len(ns.run_dirs) == 1 else None,
                          turns=int(header.get("turns") or 1))
    if ns.html is not None:
        from npukernelbench.html_report import write_run_html

        target = write_run_html(run.path, None if ns.html is True else Path(ns.html))
        print(f"html report: {target}")
    return code


def _compare_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dirs", nargs="+", type=Path, help="run directories; the first is the baseline of the deltas")
    p.add_argument("--names", help="comma-separated labels of the runs, in order (default: folder names)")
    p.add_argument("--markdown", type=Path, metavar="PATH", help="also write the table as markdown")
    p.add_argument("--csv", type=Path, metavar="PATH", help="also write the table as CSV")
    p.add_argument("--html", nargs="?", const="npukb-compare.html", default=None, metavar="PATH",
                   help="also write a self-contained HTML report (default npukb-compare.html; needs the "
                        "'report' extra)")


def _compare(ns: argparse.Namespace) -> int:
    from npukernelbench.loaded_run import load_runs
    from npukernelbench.run_comparison import compare_runs, csv_text, markdown, terminal_lines

    if ns.html is not None:
        from npukernelbench.report_plots import require_matplotlib

        require_matplotlib()
    names = [n.strip() for n in ns.names.split(",")] if ns.names else None
    comparison = compare_runs(load_runs(ns.run_dirs, names))
    print("\n".join(terminal_lines(comparison)))
    if ns.markdown:
        ns.markdown.write_text(markdown(comparison), encoding="utf-8")
        print(f"markdown: {ns.markdown}")
    if ns.csv:
        ns.csv.write_text(csv_text(comparison), encoding="utf-8")
        print(f"csv: {ns.csv}")
    if ns.html is not None:
        from npukernelbench.html_report import render_html, write_html

        write_html(Path(ns.html), render_html(comparison))
        print(f"html report: {ns.html}")
    return 0


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


def _cache_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("info", "clear"), help="info: what the build cache holds; clear: empty it")
    p.add_argument("--toolchain", default="ascendc-sim", help="whose build cache: a toolchain name or module:Class "
                   "(default ascendc-sim)")
    p.add_argument("--cache-dir", type=Path, default=None,
                   help="the cache root (default: the toolchain's; for ascendc-sim $NPUKB_CACHE_DIR, else "
                        "~/.cache/npukernelbench/ascendc-sim)")
    p.add_argument("--completions", action="store_true", help="clear: also the generated-completion cache")


def _cache(ns: argparse.Namespace) -> int:
    from npukernelbench.completion_cache import default_cache_dir
    from npukernelbench.toolchains import get_toolchain
    from npukernelbench.toolchains.base import CacheKeeper

    toolchain = get_toolchain(ns.toolchain, **({"cache_dir": ns.cache_dir} if ns.cache_dir else {}))
    if not isinstance(toolchain, CacheKeeper):
        raise ValueError(f"toolchain {ns.toolchain!r} keeps no build cache that npukb can report on or clear")
    completions = ns.cache_dir or default_cache_dir()
    entries = [p for p in completions.glob("??/*.json")] if completions.is_dir() else []
    if ns.action == "info":
        print("\n".join(toolchain.cache_report()))
        print(f"completion cache: {completions} ({len(entries)} completions)")
        return 0
    freed = toolchain.clear_cache()
    print(f"cleared the build cache {toolchain.cache_root()} ({freed / (1 << 20):.1f} MiB)")
    if ns.completions:
        for path in entries:
            path.unlink(missing_ok=True)
        print(f"cleared the completion cache {completions} ({len(entries)} completions)")
    return 0


def _new_case_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", type=Path, help="the case folder to write (must not hold a case.toml yet)")
    p.add_argument("--op", required=True, help="operator type name (MyAdd)")
    p.add_argument("--inputs", required=True, help="input names in kernel order, comma-separated (x,y)")
    p.add_argument("--outputs", required=True, help="output names in kernel order, comma-separated (z)")
    p.add_argument("--reference", required=True, metavar="EXPR",
                   help="the torch semantics as an expression of the inputs ('x + y'; 'torch' is imported); "
                        "several outputs: a tuple")
    p.add_argument("--shape", action="append", required=True, metavar="D0,D1,...",
                   help="a static shape for every input (repeatable: one case per shape and dtype)")
    p.add_argument("--dtypes", default="float32", help="dtypes of the inputs and outputs, comma-separated")
    p.add_argument("--kernel", default="", help="kernel entry name (default: the op name in snake case)")
    p.add_argument("--level", type=int, default=1, help="benchmark level (1, 2 or 3)")
    p.add_argument("--category", default="custom", help="category")


def _new_case(ns: argparse.Namespace) -> int:
    from npukernelbench.cases import load_case
    from npukernelbench.new_case import NewCase, write_case

    def names(text: str) -> list[str]:
        return [n.strip() for n in text.split(",") if n.strip()]

    if (ns.folder / "case.toml").exists():
        raise ValueError(f"{ns.folder} already holds a case.toml")
    try:
        shapes = [[int(d) for d in names(s)] for s in ns.shape]
    except ValueError:
        raise ValueError(f"--shape takes comma-separated integers, got {ns.shape}") from None
    inputs = names(ns.inputs)
    reference = f"import torch  # noqa: F401\n\n\ndef reference({', '.join(inputs)}):\n    return {ns.reference}\n"
    try:
        compile(reference, "reference.py", "exec")
    except SyntaxError as exc:
        raise ValueError(f"--reference {ns.reference!r} is not a Python expression: {exc.msg}") from None
    case = NewCase(op=ns.op, reference=reference, inputs=inputs, outputs=names(ns.outputs), cases=shapes,
                   dtypes=names(ns.dtypes), kernel=ns.kernel, level=ns.level, category=ns.category)
    try:
        folder = write_case(ns.folder, case)
    except KeyError as exc:                  # an unknown dtype
        raise ValueError(exc.args[0]) from None
    spec = load_case(folder)                 # what every run will read: a bad name or level fails here
    print(f"wrote {folder}: {spec.op} ({spec.kernel}), {len(spec.cases)} static case(s); the templates are "
          f"generated from case.toml, the expert solution goes in solution/op_host and solution/op_kernel")
    return 0


def _prompt_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", type=Path, help="a case folder (either layout)")
    p.add_argument("--project-level", "--npukb-project-level", dest="project_level", action="store_true",
                   help="the project-level prompt: with the static cases and the hardware description")
    p.add_argument("--toolchain", "--npukb-toolchain", dest="toolchain", default="ascendc-sim",
                   help="whose device the project-level prompt describes (default ascendc-sim)")
    p.add_argument("--mode", "--npukb-mode", dest="mode", default="project", choices=("project", "kernel-only", "full"),
                   help="generation mode (default project); kernel-only and full prompt for one CSV row")
    p.add_argument("--case-id", "--npukb-case-id", dest="case_id", default=None,
                   help="the CSV row's case_id (kernel-only and full; default: the first row)")
    p.add_argument("--npukb-soc", dest="soc", default=None, choices=tuple(PROFILES), metavar="NAME",
                   help="the SoC profile the project-level prompt describes (default: the case layout's)")
    p.add_argument("--json", action="store_true", help="print the messages as JSON ([{role, content}, ...])")


def _prompt(ns: argparse.Namespace) -> int:
    import json

    from npukernelbench.cases import find_case_dirs, load_case
    from npukernelbench.prompt import build_messages, render_messages

    if not ns.case.exists():
        raise ValueError(f"no such path: {ns.case}")
    folders = find_case_dirs(ns.case)
    if len(folders) != 1:
        raise ValueError(f"{ns.case} holds {len(folders)} cases; give one case folder" if folders else
                         f"{ns.case} is not a case folder (case folders hold case.toml, or the public layout's "
                         "api_desc.md and validation/)")
    from npukernelbench.modes import PROJECT, expand

    if ns.case_id is not None and ns.mode == PROJECT:
        raise ValueError("--case-id needs --npukb-mode kernel-only or full (a project prompt covers every case)")
    options = RunOptions(project_level=ns.project_level, toolchain=ns.toolchain, mode=ns.mode, soc=ns.soc)
    spec = expand(load_case(folders[0]), ns.mode, ns.case_id)[0]
    messages = build_messages(spec, options.prompt_options())
    print(json.dumps(list(messages), ensure_ascii=False, indent=2) if ns.json else render_messages(messages), end="")
    return 0


register("evaluate", "generate completions and evaluate them (no pytest)", _evaluate_args, _evaluate)
register("new-case", "write a case folder (case.toml, reference.py, api_desc.md) from names, "
         "shapes, dtypes and a reference expression", _new_case_args, _new_case)
register("cache", "show (info) or empty (clear) the build cache", _cache_args, _cache)
register("report", "rebuild summary.json/report.md of a run directory and print the table", _report_args, _report)
register("compare", "compare run directories in one Table-2-shaped table (terminal, markdown, CSV, HTML)",
         _compare_args, _compare)
_passthrough("serve", "serve a local model over an OpenAI-compatible HTTP API (transformers, or --engine vllm)",
             "npukernelbench.serve")
register("prompt", "print the messages a model gets for one case (to check them, or to prompt a model by hand)",
         _prompt_args, _prompt)
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
    ns.argv = args
    try:
        return COMMANDS[ns.command][2](ns)
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"npukb {ns.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:                   # Ctrl-C before any sample was evaluated (or in another command)
        where = " before any sample was evaluated (during the set-up or the generation)" \
            if ns.command == "evaluate" and not getattr(ns, "evaluating", False) else ""
        print(f"\nnpukb {ns.command}: interrupted{where}", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())

"""Per-run state of the pytest plugin (stored on ``config.stash``), in two roles:

- :class:`RunController` (the serial process, or pytest-xdist's controller): checks the options,
  begins the run (toolchain set-up, generation, run header), records every result the workers report,
  and writes the summary at the end;
- :class:`SampleWorker` (the serial process, or each xdist worker): what evaluating one sample item
  needs: the toolchain, the baseline cache, the completions, and whether ``--npukb-resume`` skips it.

:class:`RunState` holds the options, the run directory and the two roles (no controller on an xdist
worker; the serial process has both). A benchmark run begins only once pytest knows which sample items
it will run (after ``-k``, ``-m``, ``--lf``, explicit node ids and deselection):
:meth:`RunController.begin` is called with exactly those samples (serial: ``pytest_collection_finish``;
pytest-xdist: the controller, from the node ids of the first worker's collection, before any item is
scheduled). Until then nothing is written: a run without sample items (the project's own tests,
``--co``) never creates or touches the run directory, and the summary is printed and written only when
sample items ran.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from npukernelbench.data_seed import recorded_data_seed
from npukernelbench.options import RunOptions
from npukernelbench.store import RunDir

if TYPE_CHECKING:                            # typing only: loading the plugin stays light
    from npukernelbench.evaluate import BaselineCache
    from npukernelbench.generators.base import Completion
    from npukernelbench.interruption import Progress
    from npukernelbench.result import SampleResult
    from npukernelbench.run_progress import RunProgress
    from npukernelbench.spec import TaskSpec
    from npukernelbench.toolchains.base import Toolchain

INFRA_KEY = "npukb_infrastructure"
DATA_SEED_KEY = "npukb_data_seed"         # workerinput key: the controller's data seed, for every xdist worker
Say = Callable[[str], None]


class RunState:
    """Options, run directory and the roles of this process."""

    def __init__(self, config: pytest.Config):
        self.config = config
        try:
            self.options = RunOptions.from_namespace(config)
            if self.options.html:
                from npukernelbench.report_plots import require_matplotlib

                require_matplotlib()
        except (ValueError, RuntimeError) as exc:
            raise pytest.UsageError(str(exc)) from None
        out = self.options.out
        if not out.is_absolute():
            out = Path(config.invocation_params.dir) / out
        self.run = RunDir(out)
        self.is_worker = hasattr(config, "workerinput")
        self.options = self.options.with_data_seed(self._inherited_data_seed())
        self.toolchain = LoadedToolchain(self.options.toolchain)
        self.worker = SampleWorker(self.options, self.run, self.toolchain)
        self.controller = None if self.is_worker else RunController(config, self.options, self.run, self.toolchain,
                                                                    self.worker)

    def _inherited_data_seed(self) -> int | None:
        """The data seed this process must use rather than draw: the controller's (an xdist worker gets
        it in ``workerinput``), else the interrupted run's when resuming without an explicit one."""
        if self.is_worker:
            return getattr(self.config, "workerinput", {}).get(DATA_SEED_KEY)
        if self.options.resume and self.options.data_seed is None:
            return recorded_data_seed(self.run)
        return None

    def extra_roots(self) -> list[str]:
        """``--npukb-cases`` roots as collection arguments."""
        base = Path(self.config.invocation_params.dir)
        return [str(Path(r) if Path(r).is_absolute() else base / r) for r in self.options.cases]


class LoadedToolchain:
    """The run's toolchain, loaded on first use (once per process)."""

    def __init__(self, name: str):
        self.name = name
        self._toolchain: Toolchain | None = None
        self._reason: str | None = None
        self._checked = False

    def unavailable_reason(self) -> str | None:
        """Why the toolchain cannot run here (None: it can)."""
        if not self._checked:
            self._checked = True
            from npukernelbench.options import load_toolchain

            try:
                self._toolchain = load_toolchain(self.name)
                self._reason = self._toolchain.unavailable_reason()
            except (ImportError, ValueError, OSError, AttributeError, TypeError) as exc:
                self._reason = str(exc)
        return self._reason

    def get(self) -> Toolchain | None:
        self.unavailable_reason()
        return self._toolchain


class SampleWorker:
    """What evaluating a sample item needs, in the process that runs it."""

    def __init__(self, options: RunOptions, run: RunDir, toolchain: LoadedToolchain):
        self.options = options
        self.run = run
        self.toolchain = toolchain
        self._baseline: BaselineCache | None = None
        self._completions: dict[tuple[str, int], Completion] | None = None
        self._finished: set[tuple[str, int]] | None = None

    @property
    def baseline(self) -> BaselineCache:
        """Expert-solution costs of this process, shared by its samples."""
        if self._baseline is None:
            from npukernelbench.evaluate import BaselineCache

            self._baseline = BaselineCache()
        return self._baseline

    def use_completions(self, completions: dict[tuple[str, int], Completion]) -> None:
        """The completions the controller just generated (serial runs: no need to read them back)."""
        self._completions = completions

    def use_finished(self, results: Sequence[SampleResult]) -> None:
        """The results an earlier run already recorded (serial runs with ``--npukb-resume``)."""
        self._finished = {(r.task, r.sample) for r in results}

    def already_finished(self, task: str, sample: int) -> bool:
        if not self.options.resume:
            return False
        if self._finished is None:
            self.use_finished(self.run.results())
        assert self._finished is not None
        return (task, sample) in self._finished

    def completion(self, spec: TaskSpec, sample: int) -> Completion:
        from npukernelbench.generation import LOCAL_BACKENDS, generate_for
        from npukernelbench.generators import resolve

        if self._completions is None:
            self._completions = self.run.completions()
        key = (spec.case_id, sample)
        if key not in self._completions:
            if resolve(self.options.model)[0] not in LOCAL_BACKENDS:
                raise RuntimeError(f"no completion for {spec.case_id} sample {sample} in {self.run.path}: the run's "
                                   "generation step did not cover this case")
            self._completions.update(generate_for([spec], self.options))
        return self._completions[key]


class RunController:
    """Begins the run, records the results the workers report, and writes the summary."""

    def __init__(self, config: pytest.Config, options: RunOptions, run: RunDir, toolchain: LoadedToolchain,
                 worker: SampleWorker):
        self.config = config
        self.options = options
        self.run = run
        self.toolchain = toolchain
        self.worker = worker                 # this process's own worker (it runs the items of a serial run)
        self.results: list[SampleResult] = []
        self.infrastructure_failures: list[dict[str, Any]] = []
        self.prior: list[SampleResult] = []
        self.active = False
        self.begun = False
        self.started = False                 # the run header is written: samples may be evaluated from now on
        self.confinement: str | None = None
        self.missing_completions: list[tuple[str, int]] = []
        self.run_progress: RunProgress | None = None     # the done/total/ETA lines (run_progress.py)
        self.planned: set[tuple[str, int]] = set()      # the (task, sample) pairs this run set out to evaluate
        self.specs: dict[str, TaskSpec] = {}             # their tasks, by case id
        self.interruption: str | None = None             # the line an interrupted run ends with
        self._check_model()
        self._check_toolchain_name()
        self._check_case_roots()

    # -- options that need no collection ------------------------------------------------------------
    def _check_model(self) -> None:
        """Reject an unknown model spec before collection (cheap: nothing is imported or loaded)."""
        from npukernelbench.generators import ModelSpecError, resolve

        try:
            resolve(self.options.model)
        except ModelSpecError as exc:
            raise pytest.UsageError(f"--model: {exc}") from None

    def _check_toolchain_name(self) -> None:
        """An unknown ``--toolchain`` is a usage error, whatever the run selects."""
        from npukernelbench.toolchains import toolchain_class

        try:
            toolchain_class(self.options.toolchain)
        except ValueError as exc:
            raise pytest.UsageError(f"--toolchain: {exc}") from None

    def _check_case_roots(self) -> None:
        from npukernelbench.cases import find_case_dirs

        base = Path(self.config.invocation_params.dir)
        for root in self.options.cases:
            path = Path(root) if Path(root).is_absolute() else base / root
            if not find_case_dirs(path):
                what = "does not exist" if not path.exists() else \
                    "holds no case folder (case.toml or the public layout)"
                raise pytest.UsageError(f"--npukb-cases={root}: {path} {what}")

    # -- beginning the run ----------------------------------------------------------------------
    def begin_from_node_ids(self, ids: Sequence[str]) -> None:
        """pytest-xdist controller: the node ids one worker collected (after its deselection)."""
        from npukernelbench.cases import find_case_dirs, load_case
        from npukernelbench.modes import ModeError, expand
        from npukernelbench.spec import SpecError

        wanted: dict[str, set[int]] = {}
        for node_id in ids:
            name = node_id.rsplit("::", 1)[-1]
            if name.endswith("]") and "[s" in name:
                case_id, _, sample = name[:-1].rpartition("[s")
                if sample.isdigit():
                    wanted.setdefault(case_id, set()).add(int(sample))
        if not wanted:
            self.begin([])
            return
        base = Path(self.config.invocation_params.dir)
        specs: dict[str, TaskSpec] = {}
        for arg in self.config.args:
            path = Path(str(arg).split("::")[0])
            path = path if path.is_absolute() else base / path
            for folder in find_case_dirs(path) if path.exists() else []:
                try:
                    loaded = expand(load_case(folder), self.options.mode)
                except (SpecError, ModeError):
                    continue                     # reported by the collector of that folder
                for spec in loaded:
                    if spec.case_id in wanted:
                        specs.setdefault(spec.case_id, spec)
        self.begin([(specs[cid], s) for cid in sorted(specs) for s in sorted(wanted[cid])])

    def begin(self, samples: Sequence[tuple[TaskSpec, int]]) -> None:
        """Prepare the run for exactly ``samples`` ((spec, sample index) pairs): check the toolchain,
        set it up once, generate the missing completions, write the run header."""
        if self.begun:
            return
        self.begun = True
        if not samples or self.config.option.collectonly:
            return
        specs = list({s.case_id: s for s, _ in samples}.values())
        self.specs = {s.case_id: s for s in specs}
        self.planned = {(s.case_id, i) for s, i in samples}
        self.active = True
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        say: Say = terminal.write_line if terminal is not None else (lambda line: None)
        try:
            self._prepare(specs, say)
        except pytest.UsageError:
            self.active = False
            raise
        except (ValueError, RuntimeError, OSError) as exc:   # ModelSpecError, ReplayError, StoreError, ...
            self.active = False
            raise pytest.UsageError(_usage_message(exc, self.run.path)) from None
        if terminal is not None and self.config.get_verbosity() > -2:     # -qq: no progress lines
            from npukernelbench.run_progress import RunProgress

            self.run_progress = RunProgress(total=len(samples), write=say)

    def _prepare(self, specs: list[TaskSpec], say: Say) -> None:
        from npukernelbench.confinement import confinement_level
        from npukernelbench.generation import check_replay, ensure_completions

        reason = self.toolchain.unavailable_reason()
        if reason:
            raise pytest.UsageError(f"npukernelbench: toolchain {self.options.toolchain!r} cannot run here: {reason}")
        self.confinement = confinement_level()
        o = self.options
        say(f"npukernelbench: model={o.model} toolchain={o.toolchain} samples={o.samples} shapes={o.shapes} "
            f"tasks={len(specs)} out={self.run.path}")
        say(f"npukernelbench: confinement of candidate builds and runs: {self.confinement}")
        say(f"npukernelbench: input data seed {o.data_seed} (replay this run's data with --npukb-data-seed="
            f"{o.data_seed})")
        note = check_replay(specs, o)
        if note:
            say(f"npukernelbench: {note}")
        self._set_up_toolchain(specs, say)
        self.run.create(fresh=False)             # writable? (earlier results stay until generation worked)
        if self.options.resume:
            self.prior = self.run.results()
            self.worker.use_finished(self.prior)
        completions = ensure_completions(specs, self.options, self.run, strict=self.strict())
        self.worker.use_completions(completions)
        self.missing_completions = sorted(key for key, c in completions.items() if c.meta.get("missing"))
        if self.missing_completions:
            say(f"npukernelbench: warning: {len(self.missing_completions)} sample(s) have no completion (missing "
                "from the replay file, or no expert answer) and are left out of the run (see the skips; --strict "
                "makes this an error)")
        if not self.options.resume:
            self.run.start_fresh()
        from npukernelbench.run_summary import run_socs

        self.run.write_header({"model": o.model, "toolchain": o.toolchain, "samples_per_task": o.samples,
                               "shapes": o.shapes, "shape_examples": o.shape_examples, "shape_seed": o.shape_seed,
                               "data_seed": o.data_seed, "seed": o.seed,
                               "confinement": self.confinement, "shard": str(o.shard) if o.shard else None,
                               "socs": run_socs(specs, o.soc),
                               **({"turns": o.turns} if o.turns > 1 else {})})
        self.started = True

    def _set_up_toolchain(self, specs: list[TaskSpec], say: Say) -> None:
        """The toolchain's one-time set-up for these tasks (e.g. precompiled headers), if it has one."""
        from npukernelbench.infrastructure import InfrastructureError

        prepare = getattr(self.toolchain.get(), "prepare", None)
        if not callable(prepare):
            return
        start = time.monotonic()
        try:
            if prepare(specs, say):
                say(f"npukernelbench: toolchain set up in {time.monotonic() - start:.0f} s")
        except InfrastructureError as exc:
            raise pytest.UsageError(f"npukernelbench: setting up toolchain {self.options.toolchain!r} failed: "
                                    f"{exc.cause}") from None

    def strict(self) -> bool:
        """pytest's ``--strict`` (or the ``strict`` ini option)."""
        try:
            return bool(self.config.getini("strict")) or bool(getattr(self.config.option, "strict", False))
        except (ValueError, KeyError):
            return bool(getattr(self.config.option, "strict", False))

    # -- results ------------------------------------------------------------------------------------
    def record(self, report: pytest.TestReport) -> None:
        from npukernelbench.result import SampleResult

        if report.when == "setup" and report.failed:
            for key, value in report.user_properties:
                if key == INFRA_KEY:
                    self.infrastructure_failures.append(json.loads(value))
            return
        if report.failed and report.when not in ("setup", "call", "teardown"):
            crashed = _crashed_sample(report)       # pytest-xdist: the worker died under this item
            if crashed is not None:
                self.infrastructure_failures.append(crashed)
            return
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == "npukb_result":
                result = SampleResult.from_json(json.loads(value))
                if self.options.turns > 1:          # multi-turn repair: the items are the first turn
                    result = dataclasses.replace(result, turn=1)
                self.results.append(result)
                self.run.path.mkdir(parents=True, exist_ok=True)
                self.run.append_result(result)

    def recorder(self) -> Any:
        controller = self

        class Recorder:
            """Receives every report in the controller (from xdist workers too) and records results."""

            def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
                controller.record(report)

        return Recorder()

    def progress_reporter(self) -> Any:
        controller = self

        class ProgressReporter:
            """After pytest's own output for each report: a progress line when one is due."""

            def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
                if controller.run_progress is not None:
                    controller.run_progress.item_started(nodeid)

            @pytest.hookimpl(trylast=True)
            def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
                if controller.run_progress is not None:
                    controller.run_progress.report(report.nodeid, report.when or "", report.outcome)

        return ProgressReporter()

    def ran_samples(self, interrupted: bool = False) -> bool:
        """Whether sample items ran in this session (so that a summary is due); an interrupted run that
        had begun gets one even before its first result."""
        return self.active and bool(self.results or self.infrastructure_failures or (interrupted and self.started))

    def interrupted_early(self) -> None:
        """Ctrl-C during the set-up or generation, before any sample was evaluated: nothing of an earlier
        run in the directory was replaced; the line says so."""
        from npukernelbench.interruption import resume_command

        command = resume_command("pytest", self.config.invocation_params.args).removesuffix(" --npukb-resume")
        self.interruption = (f"npukernelbench: interrupted before any sample was evaluated (during the set-up or "
                             f"the generation); {self.run.path} holds no result of this run; rerun: {command}")

    def progress(self, finished: Iterable[tuple[str, int]], interrupted: bool) -> Progress:
        """How many of the samples this run set out to evaluate (those with a completion) have a result."""
        from npukernelbench.interruption import Progress

        total = self.planned - set(self.missing_completions)
        return Progress(len(total & set(finished)), len(total), interrupted)

    def finish(self, interrupted: bool = False) -> list[str]:
        """Summary of this run (plus resumed results): summary.json, report.md, terminal lines. An
        ``interrupted`` run (Ctrl-C) is marked so, and :attr:`interruption` gets the line it ends with."""
        from npukernelbench.interruption import interrupted_line, resume_command
        from npukernelbench.run_summary import build_summary, write_summary

        if self.options.turns > 1 and self.started and not interrupted:
            interrupted = self._repair_turns()
        merged = {(r.task, r.sample): r for r in self.prior}
        merged.update({(r.task, r.sample): r for r in self.results})
        turn_results: list[SampleResult] = []
        if self.options.turns > 1:              # the later turns are in the run directory, not in pytest's items
            turn_results = [r for r in self.run.turn_results() if (r.task, r.sample) in merged]
            merged.update({(r.task, r.sample): r for r in self.run.results() if (r.task, r.sample) in merged})
        progress = self.progress(merged, interrupted)
        done = build_summary(list(merged.values()), self.options.model, self.options.toolchain, self.options.samples,
                             self.confinement or self.run.header().get("confinement"),
                             failures=self.infrastructure_failures, missing=self.missing_completions,
                             progress=progress, turns=self.options.turns, turn_results=turn_results)
        if interrupted:
            command = resume_command("pytest", self.config.invocation_params.args)
            self.interruption = interrupted_line("npukernelbench", progress, self.run.path, command)
        try:
            write_summary(self.run, done)
            done.extra.append(f"results: {self.run.path}")
        except OSError as exc:
            done.extra.append(f"could not write the summary to {self.run.path}: {exc}")
        if self.options.html:
            done.extra.append(self._write_html())
        return done.terminal_lines()

    def _repair_turns(self) -> bool:
        """Multi-turn repair (``--npukb-turns`` > 1): turns 2 .. N, after the items (which are turn 1), in
        this process's worker pool (as many processes as xdist workers); True when Ctrl-C stopped them."""
        from npukernelbench.repair import run_turns

        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        say: Say = terminal.write_line if terminal is not None else (lambda line: None)
        workers = getattr(self.config.option, "numprocesses", None) or 1     # pytest-xdist's -n (or "auto")
        jobs = int(workers) if str(workers).isdigit() else max(1, (os.cpu_count() or 1))
        try:
            run_turns(self.specs, self.planned - set(self.missing_completions), self.options, self.run, jobs, say,
                      self.infrastructure_failures)
        except KeyboardInterrupt:
            return True
        return False

    def _write_html(self) -> str:
        """--npukb-html: RUN_DIR/report.html; the terminal line that points at it (or says why not)."""
        from npukernelbench.html_report import write_run_html

        try:
            return f"html report: {write_run_html(self.run.path)}"
        except (ValueError, RuntimeError, OSError) as exc:
            return f"could not write the HTML report: {exc}"

def _crashed_sample(report: pytest.TestReport) -> dict[str, Any] | None:
    """The sample of a report pytest-xdist makes for an item whose worker died (killed by the OOM
    killer, a signal, ``os._exit``): our machinery failed, so it is an infrastructure failure, never
    the candidate's; a resumed run evaluates it again."""
    name = report.nodeid.rsplit("::", 1)[-1]
    case_id, _, sample = name[:-1].rpartition("[s") if name.endswith("]") else ("", "", "")
    if not case_id or not sample.isdigit():
        return None
    text = str(report.longrepr or "").strip().splitlines()
    cause = text[0] if text else "the pytest worker died"
    return {"task": case_id, "sample": int(sample),
            "cause": f"{cause} (the worker process died: out of memory, a signal or an exit; see dmesg)"}


def _usage_message(exc: BaseException, run_path: Path) -> str:
    """One line for a bad model spec, replay file, run directory or damaged results file."""
    text = str(exc) or type(exc).__name__
    if isinstance(exc, OSError) and not text.startswith("cannot"):
        text = f"cannot write the run directory {run_path}: {exc.strerror or exc}; choose another with --npukb-out"
    return f"npukernelbench: {text}"


STATE = pytest.StashKey[RunState]()

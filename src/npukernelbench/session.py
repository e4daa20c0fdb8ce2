"""Per-run state of the pytest plugin (stored on ``config.stash``): options, run directory,
completions, the toolchain, and the controller's collected results.

A benchmark run begins only once pytest knows which sample items it will run (after ``-k``, ``-m``,
``--lf``, explicit node ids and deselection): :meth:`RunState.begin` is called with exactly those
samples (serial: ``pytest_collection_finish``; pytest-xdist: the controller, from the node ids of the
first worker's collection, before any item is scheduled). Until then nothing is written: a run
without sample items (the project's own tests, ``--co``) never creates or touches the run
directory, and the summary is printed and written only when sample items ran.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from npukernelbench.options import RunOptions
from npukernelbench.store import RunDir

INFRA_KEY = "npukb_infrastructure"


class RunState:
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
        self.results: list[Any] = []
        self.infrastructure_failures: list[dict[str, Any]] = []
        self._toolchain: Any = None
        self._toolchain_reason: str | None = None
        self._toolchain_checked = False
        self._completions: dict | None = None
        self._finished: set | None = None
        self.baseline: Any = None
        self.active = False
        self.begun = False
        self.prior: list[Any] = []
        self.confinement: str | None = None
        self.missing_completions: list[tuple[str, int]] = []
        if not self.is_worker:
            self._check_model()
            self._check_toolchain_name()
            self._check_case_roots()

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

    def extra_roots(self) -> list[str]:
        """``--npukb-cases`` roots as collection arguments."""
        base = Path(self.config.invocation_params.dir)
        return [str(Path(r) if Path(r).is_absolute() else base / r) for r in self.options.cases]

    # -- controller: beginning the run -----------------------------------------------------------
    def begin_from_items(self, items: Iterable[Any]) -> None:
        """Serial run (or a controller that collected): the selected sample items."""
        from npukernelbench.items import SampleItem

        samples = [(item.spec, item.sample) for item in items if isinstance(item, SampleItem)]
        self.begin(samples)

    def begin_from_node_ids(self, ids: Sequence[str]) -> None:
        """pytest-xdist controller: the node ids one worker collected (after its deselection)."""
        from npukernelbench.cases import find_case_dirs, load_case
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
        specs: dict[str, Any] = {}
        for arg in self.config.args:
            path = Path(str(arg).split("::")[0])
            path = path if path.is_absolute() else base / path
            for folder in find_case_dirs(path) if path.exists() else []:
                try:
                    spec = load_case(folder)
                except SpecError:
                    continue                     # reported by the collector of that folder
                if spec.case_id in wanted:
                    specs.setdefault(spec.case_id, spec)
        self.begin([(specs[cid], s) for cid in sorted(specs) for s in sorted(wanted[cid])])

    def begin(self, samples: Sequence[tuple[Any, int]]) -> None:
        """Prepare the run for exactly ``samples`` ((spec, sample index) pairs): check the toolchain,
        set it up once, generate the missing completions, write the run header."""
        if self.begun:
            return
        self.begun = True
        if not samples or self.config.option.collectonly:
            return
        specs = list({s.case_id: s for s, _ in samples}.values())
        self.active = True
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        say = terminal.write_line if terminal is not None else (lambda line: None)
        try:
            self._prepare(specs, say)
        except pytest.UsageError:
            self.active = False
            raise
        except (ValueError, RuntimeError, OSError) as exc:   # ModelSpecError, ReplayError, StoreError, ...
            self.active = False
            raise pytest.UsageError(_usage_message(exc, self.run.path)) from None

    def _prepare(self, specs: list[Any], say: Any) -> None:
        from npukernelbench.confinement import confinement_level
        from npukernelbench.generation import ensure_completions
        from npukernelbench.infrastructure import InfrastructureError

        reason = self.toolchain_unavailable()
        if reason:
            raise pytest.UsageError(f"npukernelbench: toolchain {self.options.toolchain!r} cannot run here: {reason}")
        self.confinement = confinement_level()
        o = self.options
        say(f"npukernelbench: model={o.model} toolchain={o.toolchain} samples={o.samples} shapes={o.shapes} "
            f"tasks={len(specs)} out={self.run.path}")
        say(f"npukernelbench: confinement of candidate builds and runs: {self.confinement}")
        prepare = getattr(self._toolchain, "prepare", None)
        if callable(prepare):
            start = time.monotonic()
            try:
                if prepare(specs, say):
                    say(f"npukernelbench: toolchain set up in {time.monotonic() - start:.0f} s")
            except InfrastructureError as exc:
                raise pytest.UsageError(f"npukernelbench: setting up toolchain {o.toolchain!r} failed: "
                                        f"{exc.cause}") from None
        self.run.create(fresh=False)             # writable? (earlier results stay until generation worked)
        if self.options.resume:
            self.prior = self.run.results()
        self._completions = ensure_completions(specs, self.options, self.run, strict=self.strict())
        self.missing_completions = sorted(key for key, c in self._completions.items() if c.meta.get("missing"))
        if self.missing_completions:
            say(f"npukernelbench: warning: {len(self.missing_completions)} sample(s) have no completion (missing "
                "from the replay file, or no expert answer) and are left out of the run (see the skips; --strict "
                "makes this an error)")
        if not self.options.resume:
            self.run.start_fresh()
        self.run.write_header({"model": self.options.model, "toolchain": self.options.toolchain,
                               "samples_per_task": self.options.samples, "shapes": self.options.shapes,
                               "shape_examples": self.options.shape_examples, "seed": self.options.seed,
                               "confinement": self.confinement,
                               "shard": str(self.options.shard) if self.options.shard else None})

    def strict(self) -> bool:
        """pytest's ``--strict`` (or the ``strict`` ini option)."""
        try:
            return bool(self.config.getini("strict")) or bool(getattr(self.config.option, "strict", False))
        except (ValueError, KeyError):
            return bool(getattr(self.config.option, "strict", False))

    # -- controller: results -----------------------------------------------------------------------
    def record(self, report: pytest.TestReport) -> None:
        from npukernelbench.result import SampleResult

        if report.when == "setup" and report.failed:
            for key, value in report.user_properties:
                if key == INFRA_KEY:
                    self.infrastructure_failures.append(json.loads(value))
            return
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == "npukb_result":
                result = SampleResult.from_json(json.loads(value))
                self.results.append(result)
                self.run.path.mkdir(parents=True, exist_ok=True)
                self.run.append_result(result)

    def recorder(self) -> Any:
        state = self

        class Recorder:
            """Receives every report in the controller (from xdist workers too) and records results."""

            def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
                state.record(report)

        return Recorder()

    def ran_samples(self) -> bool:
        """Whether sample items ran in this session (so that a summary is due)."""
        return self.active and bool(self.results or self.infrastructure_failures)

    def finish(self) -> list[str]:
        """Summary of this run (plus resumed results): summary.json, report.md, terminal lines."""
        from npukernelbench.run_summary import build_summary, write_summary

        merged = {(r.task, r.sample): r for r in self.prior}
        merged.update({(r.task, r.sample): r for r in self.results})
        done = build_summary(list(merged.values()), self.options.model, self.options.toolchain, self.options.samples,
                             self.confinement or self.run.header().get("confinement"),
                             failures=self.infrastructure_failures, missing=self.missing_completions)
        try:
            write_summary(self.run, done)
            done.extra.append(f"results: {self.run.path}")
        except OSError as exc:
            done.extra.append(f"could not write the summary to {self.run.path}: {exc}")
        if self.options.html:
            done.extra.append(self._write_html())
        return done.terminal_lines()

    def _write_html(self) -> str:
        """--npukb-html: RUN_DIR/report.html; the terminal line that points at it (or says why not)."""
        from npukernelbench.html_report import write_run_html

        try:
            return f"html report: {write_run_html(self.run.path)}"
        except (ValueError, RuntimeError, OSError) as exc:
            return f"could not write the HTML report: {exc}"

    # -- workers and serial --------------------------------------------------------------------
    def toolchain_unavailable(self) -> str | None:
        if not self._toolchain_checked:
            self._toolchain_checked = True
            from npukernelbench.evaluate import BaselineCache
            from npukernelbench.options import load_toolchain

            self.baseline = BaselineCache()
            try:
                self._toolchain = load_toolchain(self.options.toolchain)
                self._toolchain_reason = self._toolchain.unavailable_reason()
            except (ImportError, ValueError, OSError, AttributeError, TypeError) as exc:
                self._toolchain_reason = str(exc)
        return self._toolchain_reason

    def toolchain(self) -> Any:
        self.toolchain_unavailable()
        return self._toolchain

    def already_finished(self, task: str, sample: int) -> bool:
        if not self.options.resume:
            return False
        if self._finished is None:
            self._finished = {(r.task, r.sample) for r in (self.prior or self.run.results())}
        return (task, sample) in self._finished

    def completion(self, spec: Any, sample: int) -> Any:
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


def _usage_message(exc: BaseException, run_path: Path) -> str:
    """One line for a bad model spec, replay file, run directory or damaged results file."""
    text = str(exc) or type(exc).__name__
    if isinstance(exc, OSError) and not text.startswith("cannot"):
        text = f"cannot write the run directory {run_path}: {exc.strerror or exc}; choose another with --npukb-out"
    return f"npukernelbench: {text}"


STATE = pytest.StashKey[RunState]()

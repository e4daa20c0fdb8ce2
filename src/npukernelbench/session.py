"""Per-run state of the pytest plugin (stored on ``config.stash``): options, run directory,
completions, the toolchain, and the controller's collected results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from npukernelbench.options import RunOptions
from npukernelbench.store import RunDir


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
        self._toolchain: Any = None
        self._toolchain_reason: str | None = None
        self._toolchain_checked = False
        self._completions: dict | None = None
        self._finished: set | None = None
        self.baseline: Any = None
        self.active = False
        self.prior: list[Any] = []
        self.confinement: str | None = None
        if not self.is_worker:
            self._check_model()

    def _check_model(self) -> None:
        """Reject an unknown model spec before collection (cheap: nothing is imported or loaded)."""
        from npukernelbench.generators import ModelSpecError, resolve

        try:
            resolve(self.options.model)
        except ModelSpecError as exc:
            raise pytest.UsageError(f"--model: {exc}") from None

    # -- controller ----------------------------------------------------------------------------
    def case_paths(self) -> list[Path]:
        from npukernelbench.cases import find_case_dirs

        base = Path(self.config.invocation_params.dir)
        found: list[Path] = []
        for arg in [*self.config.args, *self.options.cases]:
            path = Path(str(arg).split("::")[0])
            path = path if path.is_absolute() else base / path
            if path.exists():
                found.extend(find_case_dirs(path))
        return found

    def start(self) -> None:
        """Controller (or serial process): prepare the run dir and generate every completion once."""
        from npukernelbench.cases import load_case
        from npukernelbench.spec import SpecError

        folders = self.case_paths()
        if not folders:
            return
        self.active = True
        specs = []
        for folder in dict.fromkeys(folders):
            try:
                specs.append(load_case(folder))
            except SpecError:
                continue                     # reported by the collector of that folder
        specs = [s for s in specs if self._selected(s)]
        try:
            self._prepare(specs)
        except (ValueError, RuntimeError, OSError) as exc:   # ModelSpecError, ReplayError, StoreError, ...
            self.active = False
            raise pytest.UsageError(_usage_message(exc, self.run.path)) from None

    def _prepare(self, specs: list[Any]) -> None:
        from npukernelbench.confinement import confinement_level
        from npukernelbench.generation import ensure_completions

        self.confinement = confinement_level()
        self.run.create(fresh=False)             # writable? (earlier results stay until generation worked)
        if self.options.resume:
            self.prior = self.run.results()
        self._completions = ensure_completions(specs, self.options, self.run)
        if not self.options.resume:
            self.run.start_fresh()
        self.run.write_header({"model": self.options.model, "toolchain": self.options.toolchain,
                               "samples_per_task": self.options.samples, "shapes": self.options.shapes,
                               "shape_examples": self.options.shape_examples, "seed": self.options.seed,
                               "confinement": self.confinement})

    def header_lines(self) -> list[str]:
        """The run header (pytest's report header): model, toolchain, samples, confinement level."""
        if not self.active:
            return []
        o = self.options
        return [f"npukernelbench: model={o.model} toolchain={o.toolchain} samples={o.samples} shapes={o.shapes} "
                f"out={self.run.path}", f"npukernelbench: confinement of candidate builds and runs: {self.confinement}"]

    def _selected(self, spec: Any) -> bool:
        """Apply -m and -k to the case the way pytest will to its items, so deselected cases are not
        generated for. -k matches (case-insensitive substrings) the item names ``CASE_ID[sI]``, the
        case folder's path parts and the markers; anything unsure keeps the case (a superset)."""

        mexpr = self.config.getoption("markexpr", "") or ""
        kexpr = self.config.getoption("keyword", "") or ""
        marks = set(spec.markers) | {"npukb", "static", "dynamic"}
        names = {*marks, spec.case_id, *spec.case_id.split("/"),
                 *(f"{spec.case_id}[s{i}]" for i in range(self.options.samples))}
        if spec.root is not None:                # parent collectors: rootdir, Dir nodes
            names.update(Path(spec.root).parts)
        names.add(Path(str(self.config.rootpath)).name)
        try:
            from _pytest.mark.expression import Expression  # private API: any failure keeps the case

            if mexpr and not Expression.compile(mexpr).evaluate(lambda name, **kw: name in marks):
                return False
            if kexpr and not Expression.compile(kexpr).evaluate(
                    lambda sub, **kw: any(sub.lower() in n.lower() for n in names)):
                return False
        except Exception:                        # noqa: BLE001 - pytest reports a bad expression itself
            return True
        return True

    def record(self, report: pytest.TestReport) -> None:
        from npukernelbench.result import SampleResult

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

    def finish(self) -> list[str]:
        """Summary of this run (plus resumed results): summary.json, report.md, terminal lines."""
        from npukernelbench.metrics import label_agreement, summarize
        from npukernelbench.report import markdown, terminal_lines

        merged = {(r.task, r.sample): r for r in self.prior}
        merged.update({(r.task, r.sample): r for r in self.results})
        results = sorted(merged.values(), key=lambda r: (r.task, r.sample))
        kind = next((r.speed_kind for r in results if r.speed_kind), None)
        summary = summarize(results, self.options.model, self.options.toolchain, self.options.samples, kind)
        summary["confinement"] = self.confinement or self.run.header().get("confinement")
        extra = []
        agreement = label_agreement(results)
        if agreement is not None:
            summary["mutant_label_agreement"] = agreement
            extra.append(f"mutant label agreement (build errors): {agreement['agree']}/{agreement['labelled']} = "
                         f"{100 * agreement['rate']:.1f}%")
        try:
            self.run.path.mkdir(parents=True, exist_ok=True)
            self.run.write_summary(summary)
            self.run.write_report(markdown(summary, results, extra))
            extra.append(f"results: {self.run.path}")
        except OSError as exc:
            extra.append(f"could not write the summary to {self.run.path}: {exc}")
        if self.options.html:
            extra.append(self._write_html())
        return terminal_lines(summary, extra)

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
            except (ImportError, ValueError, OSError, AttributeError) as exc:
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

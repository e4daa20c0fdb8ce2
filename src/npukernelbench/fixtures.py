"""Public fixtures, for reuse in other projects' CI (checking hand-written kernels).

=====================  =======  =================================================================
fixture                scope    value
=====================  =======  =================================================================
npukb_toolchain        session  the ``--toolchain`` toolchain; an error when it cannot run here
npukb_load_case        session  ``load(path) -> TaskSpec`` for a case folder (either layout); relative
                                paths are resolved against pytest's rootdir
npukb_task             function the TaskSpec named by ``@pytest.mark.npukb_case(...)``: a case folder
                                (relative to the test file's folder) or a ``new_case.NewCase``
npukb_completion       function a Completion: ``@pytest.mark.npukb_files({...})`` or the expert solution
npukb_kernel           function the completion built for the task's first static case (BuildResult);
                                fails the test with classified diagnostics when it does not build
npukb_checker          function the task layout's ``Checker``: ``check(case)``, ``check_static()``,
                                ``check_dynamic(examples, seed)``, ``assert_correct()``
=====================  =======  =================================================================

Example (``HOST``/``KERNEL``: the project's sources; the README holds a complete file)::

    @pytest.mark.npukb_case("cases/my_add")     # relative to this test file's folder
    @pytest.mark.npukb_files({"op_host/my_add.cpp": HOST, "op_kernel/my_add.cpp": KERNEL})
    def test_my_add(npukb_checker):
        npukb_checker.assert_correct()          # static shapes + drawn dynamic shapes
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def npukb_toolchain(request: pytest.FixtureRequest) -> Any:
    """The toolchain; one that cannot run here (no compiler) is an error of every test that uses it,
    never a skip, so that a CI job without a compiler does not pass."""
    from npukernelbench.options import load_toolchain
    from npukernelbench.session import STATE

    name = request.config.stash[STATE].options.toolchain
    try:
        toolchain = load_toolchain(name)
    except (ImportError, ValueError) as exc:
        pytest.fail(f"toolchain {name!r} cannot be loaded: {exc}", pytrace=False)
    reason = toolchain.unavailable_reason()
    if reason:
        pytest.fail(f"toolchain {name!r} cannot run here: {reason}", pytrace=False)
    return toolchain


@pytest.fixture(scope="session")
def npukb_load_case(request: pytest.FixtureRequest):
    """``load(path) -> TaskSpec``; a relative path is resolved against pytest's rootdir (never the cwd)."""
    from npukernelbench.cases import load_case

    base = Path(request.config.rootpath)

    def load(path: str | Path):
        p = Path(path)
        return load_case(p if p.is_absolute() else base / p)

    return load


@pytest.fixture
def npukb_task(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The case named by ``@pytest.mark.npukb_case(...)``: a case folder (a relative path is resolved
    against the folder of the test file, whatever the cwd) or a ``NewCase`` (written to a temporary
    folder)."""
    from npukernelbench.cases import load_case
    from npukernelbench.new_case import NewCase, write_case
    from npukernelbench.spec import SpecError

    mark = request.node.get_closest_marker("npukb_case")
    if mark is None or not mark.args:
        raise pytest.UsageError("npukb_task needs @pytest.mark.npukb_case('path/to/case') on the test")
    arg = mark.args[0]
    if isinstance(arg, NewCase):
        path = write_case(tmp_path_factory.mktemp("npukb_case") / arg.kernel_name, arg)
    else:
        here = Path(request.node.path).parent
        path = Path(arg) if Path(arg).is_absolute() else here / arg
        if not path.is_dir():
            pytest.fail(f"npukb_case({str(arg)!r}): no folder {path} (a relative path is resolved against the "
                        f"test file's folder {here})", pytrace=False)
    try:
        return load_case(path)
    except SpecError as exc:
        error = str(exc)
    pytest.fail(f"npukb_case({str(arg)!r}): {error}", pytrace=False)   # outside the except: no chained report


@pytest.fixture
def npukb_completion(request: pytest.FixtureRequest, npukb_task) -> Any:
    from npukernelbench.generators.base import Completion

    mark = request.node.get_closest_marker("npukb_files")
    if mark is not None:
        return Completion(npukb_task.case_id, 0, files=dict(mark.args[0]))
    if npukb_task.solution is None:
        pytest.skip(f"{npukb_task.case_id} ships no expert solution and the test gives no npukb_files")
    return Completion(npukb_task.case_id, 0, files=dict(npukb_task.solution))


class Checker:
    """A layout's checker (``npukernelbench.checker.Checker``) with pytest-friendly assertions."""

    def __init__(self, inner: Any):
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def assert_correct(self, shapes: str = "both", examples: int | None = None, seed: int | None = None) -> None:
        """Static shapes, then drawn dynamic shapes. A failure of the machinery (InfrastructureError)
        is retried once and then raised as is: it is not the kernel's failure."""
        from npukernelbench.evaluate import BuildFailed
        from npukernelbench.infrastructure import retry_once
        from npukernelbench.result import Status

        def check() -> list:
            outcomes = self.inner.check_static() if shapes in ("static", "both") else []
            if all(o.status is Status.PASSED for o in outcomes) and shapes in ("dynamic", "both") \
                    and self.inner.dynamic_enabled():
                outcomes.append(self.inner.check_dynamic(examples, seed))
            return outcomes

        try:
            outcomes = retry_once(check)
        except BuildFailed as exc:
            failed = exc
        else:
            failed = None
        if failed is not None:                   # outside the except: no chained "During handling" report
            pytest.fail(_build_error(failed), pytrace=False)
        for o in outcomes:
            if o.status is not Status.PASSED:
                pytest.fail(f"{o.status.value}: {o.message}", pytrace=False)


@pytest.fixture
def npukb_checker(request: pytest.FixtureRequest, npukb_task, npukb_toolchain, npukb_completion) -> Checker:
    from npukernelbench.evaluate import EvalOptions, checker_for, files_of
    from npukernelbench.extract import ParseError
    from npukernelbench.session import STATE

    try:
        files = files_of(npukb_task, npukb_completion)
    except ParseError as exc:
        unparsed: ParseError | None = exc
    else:
        unparsed = None
    if unparsed is not None:                     # outside the except: no chained "During handling" report
        pytest.fail(f"parse_error: {unparsed}", pytrace=False)
    run = request.config.stash[STATE].options          # the run's options (its data seed: one per run, printed)
    options = EvalOptions(shapes=run.shapes, shape_examples=run.shape_examples, shape_seed=run.shape_seed,
                          data_seed=run.data_seed, soc=run.soc, run_timeout_s=run.run_timeout)
    return Checker(checker_for(npukb_task, npukb_toolchain, files, options))


@pytest.fixture
def npukb_kernel(npukb_checker: Checker) -> Any:
    from npukernelbench.evaluate import BuildFailed
    from npukernelbench.shapes import static_cases

    try:
        return npukb_checker.build_case(static_cases(npukb_checker.spec)[0])
    except BuildFailed as exc:
        failed = exc
    pytest.fail(_build_error(failed), pytrace=False)   # outside the except: no chained "During handling" report


def _build_error(exc: Any) -> str:
    """A failed build (``BuildFailed``) as the test's one failure message: category and diagnostics."""
    from npukernelbench.diagnostics import classify

    return f"build_error ({classify(exc.build.diagnostics).value}):\n{exc.build.diagnostics}"

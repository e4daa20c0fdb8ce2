"""NPUKernelBench pytest plugin: hooks only. Heavy modules are imported inside the hooks that need them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from npukernelbench.fixtures import (  # noqa: F401  (public fixtures, registered with the plugin)
    npukb_checker,
    npukb_completion,
    npukb_kernel,
    npukb_load_case,
    npukb_task,
    npukb_toolchain,
)
from npukernelbench.options import add_pytest_options

MARKERS = (
    "level1: NPUKernelBench level 1 task (single operator)",
    "level2: NPUKernelBench level 2 task",
    "level3: NPUKernelBench level 3 task",
    "static: checked on the case's static shapes",
    "dynamic: checked on hypothesis-drawn dynamic shapes",
    "npukb: an NPUKernelBench sample",
    "npukb_case(path_or_new_case): case folder (relative to the test file's folder) or npukernelbench.new_case."
    "NewCase used by the npukb_task fixture",
    "npukb_files(files): source files (path -> text) used by the npukb_completion fixture",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_pytest_options(parser.getgroup("npukernelbench", "NPUKernelBench (LLM-written AscendC kernels)"))


def pytest_configure(config: pytest.Config) -> None:
    from npukernelbench.session import STATE, RunState

    for line in MARKERS:
        config.addinivalue_line("markers", line)
    state = RunState(config)
    config.stash[STATE] = state
    for root in state.extra_roots():             # --npukb-cases roots are collected like PATH arguments
        if root not in config.args:
            config.args.append(root)
    if state.controller is not None:
        config.pluginmanager.register(state.controller.recorder(), "npukernelbench-recorder")
        config.pluginmanager.register(state.controller.progress_reporter(), "npukernelbench-progress")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist controller, for each worker it starts: the run's data seed (drawn once, here)."""
    from npukernelbench.session import DATA_SEED_KEY, STATE

    node.workerinput[DATA_SEED_KEY] = node.config.stash[STATE].options.data_seed


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:  # noqa: ARG001
    """``--npukb-shard K/N``: the samples of the tasks of other shards are deselected (on every xdist
    worker alike: the split depends on the task id only)."""
    from npukernelbench.session import STATE

    shard = config.stash[STATE].options.shard
    if shard is None:
        return
    from npukernelbench.items import SampleItem

    keep, drop = [], []
    for item in items:
        (drop if isinstance(item, SampleItem) and not shard.holds(item.spec.case_id) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_finish(session: pytest.Session) -> None:
    """Serial run: the benchmark begins with exactly the selected sample items."""
    from npukernelbench.items import SampleItem
    from npukernelbench.session import STATE

    controller = session.config.stash[STATE].controller
    if controller is not None:
        controller.begin([(item.spec, item.sample) for item in session.items if isinstance(item, SampleItem)])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids) -> None:  # noqa: ARG001
    """pytest-xdist controller (which collects nothing itself): the first worker's selection, before
    any item is scheduled."""
    from npukernelbench.session import STATE

    controller = node.config.stash[STATE].controller if hasattr(node, "config") else None
    if controller is not None:
        controller.begin_from_node_ids(ids)


def pytest_collect_directory(path: Path, parent: pytest.Collector):
    from npukernelbench.cases import is_case_dir

    if is_case_dir(path):
        from npukernelbench.items import CaseFolder

        return CaseFolder.from_parent(parent, path=path)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    """A task that is one file (a MultiKernelBench reference module) is collected like a case folder."""
    if file_path.suffix != ".py":
        return None
    from npukernelbench.cases import is_case_dir

    if is_case_dir(file_path):
        from npukernelbench.items import CaseFile

        return CaseFile.from_parent(parent, path=file_path)
    return None


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:  # noqa: ARG001
    from npukernelbench.session import STATE

    controller = config.stash[STATE].controller
    interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
    if controller is None:
        return
    if not controller.ran_samples(interrupted):
        if interrupted and controller.active:
            controller.interrupted_early()
        return
    lines = controller.finish(interrupted)
    terminalreporter.write_sep("=", "NPUKernelBench")
    for line in lines:
        terminalreporter.write_line(line)


def pytest_unconfigure(config: pytest.Config) -> None:
    """An interrupted run (Ctrl-C) ends with one line: how many samples finished, how to resume (printed
    here, after pytest's own closing lines)."""
    from npukernelbench.session import STATE

    state = config.stash.get(STATE, None)
    line = state.controller.interruption if state is not None and state.controller is not None else None
    if not line:
        return
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if terminal is not None:
        terminal.write_line(line, yellow=True, bold=True)
    else:
        print(line, file=sys.stderr)

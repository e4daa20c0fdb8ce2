"""The MultiKernelBench answers of the harness tests. A fixture folder holds each correct answer once, as
a file (``tests/data/<folder>/answers/<name>.py``; ``add`` is the prompt's own worked example); a wrong
answer is a correct one with a named textual change (``WRONG``), made here, so that the answers that
should fail differ from the right one only where the test means them to."""

from __future__ import annotations

import re
from importlib import resources
from typing import NamedTuple

from harness_paths import DATA


class Change(NamedTuple):
    pattern: str          # a regular expression that must match the correct answer exactly once
    replacement: str


# name -> the correct answer it is made from and the change that makes it wrong
WRONG: dict[str, tuple[str, Change]] = {
    # subtracts where it should add: builds and runs, and its outputs are wrong
    "add_wrong_math": ("add", Change(re.escape("Add(z, x, y, n);"), "Sub(z, x, y, n);")),
    # project_json_src without the comma after "language": not valid JSON (line 6)
    "add_bad_json": ("add", Change(re.escape('"language": "cpp",'), '"language": "cpp"')),
    # no python_bind_src at all
    "add_missing_string": ("add", Change(r"python_bind_src = '''\n.*?\n'''\n\n", "")),
    # multiplies by factor + 1
    "scale_wrong_factor": ("scale", Change(re.escape("scale_custom(x, factor)"), "scale_custom(x, factor + 1.0)")),
}


def changed(text: str, change: Change) -> str:
    """``text`` with ``change`` made; LookupError unless its pattern matches exactly once (a correct answer
    edited so that the change no longer applies must fail the tests, not make a wrong answer right)."""
    found = len(re.findall(change.pattern, text, flags=re.DOTALL))
    if found != 1:
        raise LookupError(f"answer change {change.pattern!r}: found {found} times in the answer, expected once")
    return re.sub(change.pattern, lambda _: change.replacement, text, flags=re.DOTALL)


def answer_text(folder: str, name: str) -> str:
    """The answer ``name`` of the fixture folder ``tests/data/<folder>``: a correct one as its file holds it,
    a wrong one (``WRONG``) made from its correct one."""
    if name in WRONG:
        correct, change = WRONG[name]
        return changed(answer_text(folder, correct), change)
    if folder == "mkb" and name == "add":
        return resources.files("npukernelbench.layouts.mkb").joinpath("example", "add_answer.py").read_text()
    return (DATA / folder / "answers" / f"{name}.py").read_text()

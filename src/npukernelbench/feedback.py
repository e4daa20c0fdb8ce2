"""Multi-turn repair feedback: what a sample that did not pass is told before it answers again.

The follow-up user message says how far the answer got and carries the pipeline's own report of the
failure: the build diagnostics (first errors first, template chains and include stacks dropped:
``diagnostics.trim``), the runtime or violation report, the mismatch report (with the failing case),
the parse or static-check reason. It is bounded (:data:`FEEDBACK_LIMIT` characters) and scrubbed
(``scrub.scrub``: no harness environment, no paths outside the candidate's build; the run's scratch
directory is named ``<scratch>``). Only verdicts on the candidate become feedback: an infrastructure
failure has no :class:`SampleResult` and so never reaches this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from npukernelbench.generators.base import Completion
from npukernelbench.result import SampleResult, Status

FEEDBACK_LIMIT = 3000          # characters of the report in one follow-up message
DIAGNOSTIC_ERRORS = 5          # build errors shown, first first

_WHAT = {
    Status.PARSE_ERROR: "the answer could not be parsed into project files",
    Status.REJECTED: "the static checks rejected the sources",
    Status.BUILD_ERROR: "the project did not build",
    Status.RUNTIME_ERROR: "the kernel built but failed at run time",
    Status.TIMEOUT: "the kernel built but did not finish in time",
    Status.WRONG: "the kernel ran but its output differs from the reference",
}


def report(result: SampleResult) -> str:
    """The failure report of one result, unbounded and unscrubbed beyond what the result holds."""
    from npukernelbench.diagnostics import trim

    parts: list[str] = []
    diagnostics = result.details.get("diagnostics")
    if result.status is Status.BUILD_ERROR and isinstance(diagnostics, str) and diagnostics.strip():
        parts.append("Compiler diagnostics (first errors first):\n"
                     + trim(diagnostics, limit=FEEDBACK_LIMIT, max_errors=DIAGNOSTIC_ERRORS))
    elif result.message:
        parts.append(result.message)
    case = result.details.get("case")
    if case:
        parts.append(f"Failing case: {case}")
    return "\n\n".join(parts) or "(no further details)"


def _hide(text: str, scratch: Path | None) -> str:
    if scratch is None:
        return text
    for form in sorted({str(scratch), str(Path(scratch).resolve())}, key=len, reverse=True):
        if form and form != ".":
            text = text.replace(form, "<scratch>")
    return text


def feedback_message(result: SampleResult, turn: int, turns: int, scratch: Path | None = None,
                     limit: int = FEEDBACK_LIMIT) -> str:
    """The follow-up user message for ``result`` (the verdict on turn ``turn`` of at most ``turns``)."""
    from npukernelbench.scrub import scrub

    if result.passed:
        raise ValueError("a passing sample gets no feedback: its episode has ended")
    what = _WHAT.get(result.status, result.status.value)
    body = _hide(scrub(report(result), limit=limit), scratch)
    stage = f" (it got as far as: {result.stage.value})" if result.stage is not None else ""
    return (f"Your answer did not pass (turn {turn} of {turns}): {what}{stage}.\n\n{body}\n\n"
            "Fix the problem and answer again with every project file, complete, in the same format as before.")


def answer_text(completion: Completion) -> str:
    """The assistant turn as the model gave it (a files-only completion, rendered as files)."""
    if completion.text is not None:
        return completion.text
    from npukernelbench.extract import render_files

    return render_files(dict(completion.files or {}))


def follow_up_messages(prompt: Sequence[Mapping[str, str]],
                       history: Sequence[tuple[Completion, SampleResult]], turns: int,
                       scratch: Path | None = None) -> tuple[dict[str, str], ...]:
    """The conversation of the next turn: the first prompt, then for every earlier turn the answer and
    its feedback."""
    messages = [dict(m) for m in prompt]
    for turn, (completion, result) in enumerate(history, start=1):
        messages.append({"role": "assistant", "content": answer_text(completion)})
        messages.append({"role": "user", "content": feedback_message(result, turn, turns, scratch)})
    return tuple(messages)

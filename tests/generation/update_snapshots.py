"""Rewrite the prompt snapshots of test_prompt.py after an intended prompt change:
``python tests/generation/update_snapshots.py``. Kept out of the test run: a test only compares, so a
changed prompt can never be accepted silently by an environment variable left set."""

from __future__ import annotations

from pathlib import Path

from npukernelbench.prompt import PromptOptions, build_messages, render_messages
from npukernelbench.spec import load_spec

REPO = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).parent / "snapshots"
ADD_CUSTOM = REPO / "benchmark_cases" / "level1" / "math" / "add_custom"


def snapshots() -> dict[str, str]:
    """Snapshot file name -> the text the current code renders."""
    spec = load_spec(ADD_CUSTOM, REPO / "benchmark_cases")
    return {f"add_custom_{'project' if project else 'kernel'}.txt":
            render_messages(build_messages(spec, PromptOptions(project_level=project))) for project in (False, True)}


def main() -> None:
    for name, text in snapshots().items():
        path = SNAPSHOTS / name
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {'unchanged' if old == text else 'written'}")


if __name__ == "__main__":
    main()

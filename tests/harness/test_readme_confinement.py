"""The README's sample run header shows a confinement level the harness can print, and the README says
which level to expect with and without bubblewrap and what each means for safety."""

from __future__ import annotations

import re

from harness_paths import HERE

from npukernelbench.confinement import LEVELS

README = HERE.parents[1] / "README.md"


def test_sample_header_shows_a_real_level_and_the_levels_are_explained() -> None:
    text = README.read_text(encoding="utf-8")
    shown = re.search(r"samples/task: \d+\s+confinement: (\S+)", text)
    assert shown is not None
    level = shown.group(1)
    assert re.fullmatch("(" + "|".join(re.escape(x) for x in LEVELS) + r")(\+landlock)?(\+seccomp)?", level), level
    section = text[shown.end():text.index("\n**", text.index("**Which confinement to expect.**") + 2)]
    for name in LEVELS:
        assert f"`{name}`" in section, f"the README does not say what {name!r} means"
    assert "Without bubblewrap it is `netns+rlimits`" in section and "docs/security.md#levels" in section

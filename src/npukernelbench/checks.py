"""Static checks on untrusted sources, table-driven. A finding makes the sample ``rejected``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    rule: str          # short rule id, e.g. "include-path"
    path: str          # source file (relative path in the project)
    line: int
    detail: str

    def __str__(self) -> str:
        return f"rejected by static check '{self.rule}' at {self.path}:{self.line}: {self.detail}"


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    detail: str


RULES: tuple[Rule, ...] = (
    Rule("include-path", re.compile(r'^\s*#\s*include\s*[<"](/|[^>"]*\.\.)'),
         "absolute or '..' include paths are not allowed"),
    Rule("inline-asm", re.compile(r"\b(__asm__|asm)\s*(volatile\s*)?\("), "inline assembly is not allowed"),
)


def check_sources(files: Mapping[str, str]) -> Finding | None:
    """The first rule violated by any file, or None when the sources pass."""
    for path, text in sorted(files.items()):
        for number, line in enumerate(text.splitlines(), start=1):
            for rule in RULES:
                if rule.pattern.search(line):
                    return Finding(rule.name, path, number, rule.detail)
    return None

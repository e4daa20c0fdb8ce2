"""``-k`` and ``-m`` for ``npukb evaluate``, with pytest's meaning: ``-m`` matches the sample's
markers (``level1``, its category, ``static``/``dynamic``, ``npukb``), ``-k`` matches
case-insensitive substrings of the item name ``CASE_ID[sI]``, the case id's parts and the markers.
The expressions are parsed by pytest's own expression language, so a selection that works for
``pytest benchmark_cases -k ...`` works here too."""

from __future__ import annotations

from dataclasses import dataclass

from npukernelbench.spec import TaskSpec


def _compile(text: str, option: str):
    from _pytest.mark.expression import Expression  # pytest's expression language (private module)

    try:
        return Expression.compile(text)
    except Exception as exc:  # noqa: BLE001 - SyntaxError in pytest 9, ParseError before
        raise ValueError(f"{option}: invalid expression {text!r}: {exc}") from None


@dataclass(frozen=True)
class Selection:
    keyword: str = ""
    markexpr: str = ""
    shapes: str = "both"

    def __post_init__(self) -> None:
        for text, option in ((self.keyword, "-k"), (self.markexpr, "-m")):
            if text:
                _compile(text, option)          # a bad expression fails before anything runs

    def marks(self, spec: TaskSpec) -> set[str]:
        return {*spec.markers, "npukb", *(("static", "dynamic") if self.shapes == "both" else (self.shapes,))}

    def selects(self, spec: TaskSpec, sample: int) -> bool:
        marks = self.marks(spec)
        if self.markexpr and not _compile(self.markexpr, "-m").evaluate(lambda name, **kw: name in marks):
            return False
        if self.keyword:
            names = {*marks, f"{spec.case_id}[s{sample}]", *spec.case_id.split("/")}
            if not _compile(self.keyword, "-k").evaluate(
                    lambda sub, **kw: any(sub.lower() in n.lower() for n in names)):
                return False
        return True

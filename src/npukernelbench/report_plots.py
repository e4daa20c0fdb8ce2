"""The HTML report's charts, drawn with matplotlib (the ``report`` extra, imported only here) and
returned as inline SVG text: pass@k curves, error-taxonomy bars and the speedup distribution."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from npukernelbench.metrics import pass_at_k_curve
from npukernelbench.result import ErrorCategory, SampleResult

MISSING = "the HTML report needs matplotlib; install it with: pip install 'npukernelbench[report]'"


def require_matplotlib() -> None:
    """Raise a one-line RuntimeError when matplotlib cannot be imported (cheap: no import)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise RuntimeError(MISSING)


@contextmanager
def _figure(width: float, height: float) -> Iterator[tuple[Any, Any]]:
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "npukb", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False}):
        fig = Figure(figsize=(width, height), layout="constrained")
        yield fig, fig.subplots


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def pass_at_k_svg(names: Sequence[str], results: Sequence[Sequence[SampleResult]], levels: Sequence[str]) -> str:
    """ER pass@k for k = 1..n, one panel per level (and the mean), one line per run."""
    with _figure(3.0 * len(levels) + 0.6, 3.0) as (fig, subplots):
        from matplotlib.ticker import ScalarFormatter

        most = max((len(curve) for rs in results for curve in [pass_at_k_curve(rs)]), default=1)
        axes = subplots(1, len(levels), sharey=True, squeeze=False)[0]
        for ax, level in zip(axes, levels, strict=True):
            for name, rs in zip(names, results, strict=True):
                chosen = [r for r in rs if level == "mean" or f"level{r.level}" == level]
                curve = pass_at_k_curve(chosen)
                if not curve:
                    continue
                ks, values = zip(*curve, strict=True)
                ax.plot(ks, [100 * v for v in values], marker="o" if len(ks) < 12 else None, markersize=4,
                        label=name, gid=f"passk-{level}-{name}")
            ax.set_title(level)
            ax.set_xlabel("samples k")
            if most > 20:
                ax.set_xscale("log")
                ax.xaxis.set_major_formatter(ScalarFormatter())
            else:
                ax.xaxis.get_major_locator().set_params(integer=True)
            ax.set_ylim(-2, 102)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("ER pass@k (%)")
        axes[-1].legend(loc="lower right", fontsize=8)
        return _svg(fig)


def taxonomy_svg(names: Sequence[str], taxonomies: Sequence[dict[str, int]]) -> str:
    """Build errors per taxonomy class, one bar per run in each class."""
    classes = [c.value for c in ErrorCategory]
    with _figure(7.5, 0.25 * len(classes) * max(1, len(names)) ** 0.5 + 1.0) as (fig, subplots):
        ax = subplots()
        height = 0.8 / len(names)
        for i, (name, tax) in enumerate(zip(names, taxonomies, strict=True)):
            ys = [j + (i - (len(names) - 1) / 2) * height for j in range(len(classes))]
            ax.barh(ys, [tax.get(c, 0) for c in classes], height=height, label=name, gid=f"taxonomy-{name}")
        ax.set_yticks(range(len(classes)), classes)
        ax.invert_yaxis()
        ax.set_xlabel("build errors (samples)")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=8)
        ax.grid(axis="x", alpha=0.3)
        return _svg(fig)


def speedup_svg(names: Sequence[str], speedups: Sequence[Sequence[float]], kind: str) -> str:
    """Distribution of the speedups of correct, non-suspect samples (log scale), one histogram per run."""
    values = [v for vs in speedups for v in vs if v > 0]
    low, high = math.log10(min(values)), math.log10(max(values))
    if high - low < 0.2:
        low, high = low - 0.1, high + 0.1
    with _figure(7.5, 3.0) as (fig, subplots):
        ax = subplots()
        bins = [10 ** (low + (high - low) * i / 24) for i in range(25)]
        for name, vs in zip(names, speedups, strict=True):
            if vs:
                ax.hist(vs, bins=bins, histtype="step", linewidth=1.5, label=f"{name} ({len(vs)})",
                        gid=f"speedup-{name}")
        ax.set_xscale("log")
        ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
        label = "speedup over the expert solution"
        ax.set_xlabel(f"{label} ({kind}{': simulator cost model, not measured' if kind == 'estimated' else ''})")
        ax.set_ylabel("correct samples")
        ax.legend(fontsize=8)
        return _svg(fig)

"""``ascend-cot build CONFIG.yaml --out DIR`` and ``ascend-cot stats DIR``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ascend-cot", description="Build the Ascend-CoT training corpus.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="run the stages and write DIR/dataset, data.jsonl, stats.json, README.md")
    b.add_argument("config", type=Path, help="the build's YAML config")
    b.add_argument("--out", type=Path, required=True, help="output folder (a killed build resumes there)")
    b.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config setting, e.g. --set mix.docs=0 (repeatable)")
    b.add_argument("--fresh", action="store_true", help="discard finished stages and caches in --out first")
    b.add_argument("--no-progress", action="store_true", help="no progress bars")
    s = sub.add_parser("stats", help="print a finished build's statistics")
    s.add_argument("folder", type=Path)
    s.add_argument("--json", action="store_true", help="print stats.json as is")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from ascend_cot.user_errors import USER_ERRORS

    try:
        if args.command == "build":
            from ascend_cot.build import build

            outcome = build(args.config, args.out, fresh=args.fresh, progress=not args.no_progress,
                            overrides=args.overrides)
            from ascend_cot.stats import render

            print(render(outcome.stats))
            return 0
        from ascend_cot.stats import read_stats, render

        stats = read_stats(args.folder)
        print(json.dumps(stats, indent=2) if args.json else render(stats))
        return 0
    except USER_ERRORS as exc:
        print(f"ascend-cot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ascend-cot: interrupted; finished stages are kept: rerun the same command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())

"""Rewrite kernel-side simulator headers from trailing location parameters to call-site capture.

Until this change every public kernel API overload of ascendc-sim ended with ``NPUKB_LOC_PARAMS``
(``const char* file = __builtin_FILE(), int line = __builtin_LINE()``), spelled out in some headers,
and the function-pointer companions forwarded ``NPUKB_PTR_LOC``. The real AscendC signatures have no
such parameters, so those defaulted parameters made real overload sets ambiguous (``Get(0)``) and
changed function types. Now the runtime finds the caller's line from the call stack
(``runtime/call_site.h``); a function body that still refers to ``file`` / ``line`` declares them with
``NPUKB_CALLER`` (both "the caller's call site").

The rewrite, applied to each file named on the command line (in place):

1. a parameter list ending in ``, NPUKB_LOC_PARAMS)`` or in the spelled-out pair loses it (also across
   the backslash-continued lines of a macro), and the function body that follows starts with
   ``NPUKB_CALLER;``;
2. ``, NPUKB_PTR_LOC`` disappears from argument lists (the companions call the real signature).

Usage: ``python tools/rewrite_loc_params.py FILE...``; prints the number of rewrites per file. A
forwarding call that passed ``file, line`` on to another public API (``Get<T>(file, line)``) does not
compile afterwards and is fixed by hand (drop the two arguments).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_GAP = r"(?:\s|\\\n)*"           # white space, also across a macro's continued lines
_LOC = (r"(?:NPUKB_LOC_PARAMS"
        r"|const\s+char\s*\*\s*file\s*=\s*__builtin_FILE\(\)\s*,\s*int\s+line\s*=\s*__builtin_LINE\(\))")
# `, LOC)` or `(LOC)`, then whatever stands between the parameter list and the body's brace
# (const, noexcept, a trailing return type), then `{`.
_PARAMS = re.compile(r"(?P<lead>,|(?<=\())" + _GAP + _LOC + _GAP + r"\)(?P<mid>[^{};]*?)\{")
_PTR_LOC = re.compile(r"," + _GAP + r"NPUKB_PTR_LOC\b")


def rewrite(text: str) -> tuple[str, int]:
    """The rewritten text and the number of rewrites made."""
    count = 0

    def params(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return ")" + m.group("mid") + "{ NPUKB_CALLER;"

    text = _PARAMS.sub(params, text)
    text, n = _PTR_LOC.subn("", text)
    return text, count + n


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for name in argv:
        path = Path(name)
        new, n = rewrite(path.read_text(encoding="utf-8"))
        if n:
            path.write_text(new, encoding="utf-8")
        print(f"{name}: {n} rewrite(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

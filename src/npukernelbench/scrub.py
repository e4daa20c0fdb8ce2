"""Messages that do not leak: every text a result stores (and so every text that becomes training data
or is shown to a model) is bounded and free of the harness's environment and of paths outside the
candidate's build.

:func:`scrub` is the one function; :class:`npukernelbench.result.SampleResult` applies it to its
message and to every string in its details when it is made, so nothing recorded escapes it.

- **Bounded**: at most :data:`TEXT_LIMIT` characters, the head and the tail (where compiler errors
  and crash lines are), with a marker between.
- **No environment**: every value of the harness's environment of at least :data:`MIN_SECRET`
  characters (any length for a name that says key, token, secret, password, credential or auth)
  becomes ``<redacted>``, longest first.
- **No outside paths**: an absolute path of two or more components becomes ``<path>`` (followed by
  its file name when that is a source file's, for readable diagnostics), except the compiler's
  standard header directories and the simulator's own headers (shown relative to their folder).
  Paths inside the build are already relative when they get here (the builder strips its folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

TEXT_LIMIT = 8000
MIN_SECRET = 6
REDACTED = "<redacted>"
PATH = "<path>"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH", re.IGNORECASE)
# An absolute path: "/" after a start, space, quote, bracket, "=", ":" or ","; two or more components.
_ABSOLUTE = re.compile(r"(?<![\w./~-])(?:/[\w.+@%,~-]+){2,}/?")
_SOURCE_NAME = re.compile(r"[\w.+-]+\.(?:h|hh|hpp|hxx|inc|inl|ipp|tcc|c|cc|cpp|cxx|py)")
# Directories whose files are public knowledge (the C and C++ standard headers).
_PUBLIC_PREFIXES = ("/usr/include/", "/usr/lib/gcc/", "/usr/local/include/", "/usr/lib/llvm")


# Directories a toolchain declares public (its own headers: add_public_root); paths below one are shown
# relative to it, as the compiler's include path would name them.
_PUBLIC_ROOTS: list[str] = []


def add_public_root(path: str | os.PathLike[str]) -> None:
    """Declare a directory whose files are public knowledge (a toolchain's headers, called by the
    toolchain when it is set up): scrubbed messages show paths below it relative to it."""
    root = str(path).rstrip("/") + "/"
    if root not in _PUBLIC_ROOTS:
        _PUBLIC_ROOTS.append(root)


def harness_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values :func:`scrub` redacts: the environment's long values and every secret-named one."""
    env = os.environ if environ is None else environ
    found = {value for name, value in env.items()
             if len(value) >= MIN_SECRET or (len(value) >= 3 and _SECRET_NAME.search(name))}
    return sorted(found, key=len, reverse=True)


def _path(match: re.Match[str]) -> str:
    path = match.group(0)
    for root in _PUBLIC_ROOTS:
        if path.startswith(root):
            return path[len(root):]
    if path.startswith(_PUBLIC_PREFIXES):
        return path
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return f"{PATH}/{name}" if _SOURCE_NAME.fullmatch(name) else PATH


def bound(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters: head and tail, with a marker between."""
    if len(text) <= limit:
        return text
    marker = f"\n... [{len(text) - limit} characters cut] ...\n"
    half = max((limit - len(marker)) // 2, 0)
    return text[:half] + marker + text[len(text) - half:]


def scrub(text: str, limit: int = TEXT_LIMIT, environ: Mapping[str, str] | None = None) -> str:
    """``text`` as it may be stored: environment values redacted, outside paths replaced, bounded."""
    if not text:
        return text
    for secret in harness_secrets(environ):
        if secret in text:
            text = text.replace(secret, REDACTED)
    text = _ABSOLUTE.sub(_path, text)
    return bound(text, limit)


def scrub_value(value: Any, limit: int = TEXT_LIMIT) -> Any:
    """:func:`scrub` applied to every string in a JSON-like value (dict keys included)."""
    if isinstance(value, str):
        return scrub(value, limit)
    if isinstance(value, dict):
        return {scrub_value(k, limit) if isinstance(k, str) else k: scrub_value(v, limit) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub_value(v, limit) for v in value)
    return value

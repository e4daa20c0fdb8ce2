"""Completion text -> source files, or :class:`ParseError` with the reason.

Each file is a fenced code block labelled with its path relative to the project, either

- on a header line just before the fence: ``=== op_host/add_custom.cpp ===`` (also accepted:
  ``### op_host/add_custom.cpp``, ``**op_kernel/add_custom.cpp**``, ``File: op_host/x.h``), or
- in the fence's info string: ```` ```cpp op_kernel/add_custom.cpp ```` (or ``title="..."``), or
- as a comment on the block's first line: ``// op_host/add_custom.cpp``.

The LAST block per path wins, so drafts in reasoning text (``<think>...</think>``) cannot override
the final answer. Paths must lie under ``op_host/`` or ``op_kernel/`` and be C++ sources or headers;
the kernel entry ``op_kernel/<kernel>.cpp`` and at least one host source (``op_host/*.cpp``, any name)
must be present and non-empty.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MAX_COMPLETION_CHARS = 1_000_000
MAX_FILE_CHARS = 200_000
MAX_FILES = 64                   # whole op projects: real ones have a dozen kernel headers and several host files

_PATH = r"op_(?:host|kernel)/[A-Za-z0-9_][A-Za-z0-9_./-]*"
_VALID_PATH = re.compile(r"^op_(host|kernel)/([A-Za-z0-9_]+/)*[A-Za-z0-9_][A-Za-z0-9_.-]*\.(cpp|cc|h|hpp|inc)$")
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
_HEADER = re.compile(r"^\s*(?:={2,}|#{1,6}|\*\*|`)?\s*(?:file(?:name)?\s*[:=]?\s*)?`?(?P<path>\S+?)`?\s*"
                     r"(?:={2,}|\*\*|:)?\s*$", re.IGNORECASE)
_COMMENT = re.compile(r"^\s*(?://|/\*)\s*(?:file(?:name)?\s*[:=]?\s*)?(?P<path>" + _PATH + r")\s*(?:\*/)?\s*$",
                      re.IGNORECASE)
_INFO_PATH = re.compile(r"(?:title|file|path|filename)?=?[\"']?"
                        r"(?P<path>[^\s\"']*/[^\s\"']*|[^\s\"']+\.(?:cpp|h|hpp|cc))")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


class ParseError(ValueError):
    """The completion holds no usable project; the message says why."""


@dataclass(frozen=True)
class Block:
    path: str | None
    text: str
    line: int


def _label_from_header(lines: list[str], fence_index: int) -> str | None:
    """A path label on the closest non-empty line above the fence (at most 2 lines up)."""
    seen = 0
    i = fence_index - 1
    while i >= 0 and seen < 2:
        line = lines[i].strip()
        i -= 1
        if not line:
            continue
        seen += 1
        if _FENCE.match(lines[i + 1]):
            return None
        m = _HEADER.match(line)
        if m and "/" in m.group("path"):
            return m.group("path").strip("`*:")
        return None
    return None


def _label_from_info(info: str) -> str | None:
    for token in info.split()[0:4]:
        m = _INFO_PATH.fullmatch(token) or _INFO_PATH.match(token)
        if m and ("/" in m.group("path") or "." in m.group("path")):
            return m.group("path")
    return None


def blocks(text: str) -> list[Block]:
    """Every fenced block in ``text`` with its label (None when unlabelled)."""
    lines = text.splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").strip()
        label = _label_from_info(info) or _label_from_header(lines, i)
        body: list[str] = []
        j = i + 1
        closed = False
        while j < len(lines):
            close = re.match(r"^ {0,3}(`{3,}|~{3,})\s*$", lines[j])
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= len(fence):
                closed = True
                break
            body.append(lines[j])
            j += 1
        if body and label is None:
            cm = _COMMENT.match(body[0])
            if cm:
                label = cm.group("path")
        if not closed:
            raise ParseError(f"the code block starting at line {i + 1}"
                             f"{f' ({label})' if label else ''} is never closed (truncated completion?)")
        found.append(Block(label, "\n".join(body) + "\n", i + 1))
        i = j + 1
    return found


def extract_files(text: str, required: Iterable[str], complete: bool = True) -> dict[str, str]:
    """Source files of a completion. Raises :class:`ParseError` naming what is wrong. ``complete``
    False accepts part of a project (a fix that restates only the files it changes; the caller
    merges it into the project it fixes)."""
    required = tuple(required)
    if text is None or not text.strip():
        raise ParseError("empty completion")
    if len(text) > MAX_COMPLETION_CHARS:
        raise ParseError(f"completion is {len(text)} characters, above the {MAX_COMPLETION_CHARS} limit")
    answer = _THINK.sub("", text)
    if "<think>" in answer.lower() and "</think>" not in answer.lower():
        raise ParseError("the completion ends inside a <think> section (no final answer)")
    found = blocks(answer)
    if not found:
        raise ParseError("no fenced code block found; write each file as a fenced block labelled with its path, "
                         f"e.g. '=== {required[0] if required else 'op_host/x.cpp'} ===' before the fence")
    files: dict[str, str] = {}
    for block in found:
        if block.path is None:
            continue
        path = block.path.strip().removeprefix("./")
        if path.startswith("/") or ".." in path.split("/") or not _VALID_PATH.match(path):
            raise ParseError(f"code block at line {block.line} is labelled {block.path!r}: not an allowed path "
                             "(allowed: op_host/*.cpp|h and op_kernel/*.cpp|h, relative, no '..')")
        if len(block.text) > MAX_FILE_CHARS:
            raise ParseError(f"{path} is {len(block.text)} characters, above the {MAX_FILE_CHARS} limit")
        files[path] = block.text                      # the last block per path wins
    if not files:
        raise ParseError(f"{len(found)} code block(s) but none labelled with a file path such as "
                         f"{', '.join(required) or 'op_host/x.cpp'}")
    if len(files) > MAX_FILES:
        raise ParseError(f"{len(files)} files, above the {MAX_FILES} limit")
    for path, body in files.items():
        if not body.strip():
            raise ParseError(f"the code block for {path} is empty")
    if complete:
        check_project(files, required)
    return files


def is_host_source(path: str) -> bool:
    """Whether ``path`` is named like a source CANN's op project build compiles into the tiling and
    prototype library: ``op_host/*.cpp`` or ``*.cc`` except the operator-API library sources
    ``aclnn_*.cpp`` and ``*_l0.cpp`` (files in ``op_host/`` subfolders are not compiled either).
    :func:`host_sources` also leaves out the operator-API sources named otherwise."""
    parts = path.split("/")
    if len(parts) != 2 or parts[0] != "op_host" or not parts[1].endswith((".cpp", ".cc", ".cxx")):
        return False
    stem = parts[1].rsplit(".", 1)[0]
    return not (stem.startswith("aclnn_") or stem.endswith("_l0"))


# Headers only CANN's operator-API library (aclnn level-2 APIs and level-0 operators, built on opdev's
# executor) includes; its log header (opdev/op_log.h) is shared with tiling and prototype code.
_OPERATOR_API_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:opdev/(?!op_log\.h)|aclnn/(?!opdev/op_log\.h)'
                                   r'|aclnnop/|aclnn_kernels/|level0/)', re.MULTILINE)
_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


def is_operator_api_source(path: str, files: Mapping[str, str]) -> bool:
    """Whether ``path`` belongs to the operator-API library: it includes, itself or through the
    project's own headers, a header of opdev's executor, the aclnn API or its level-0 operators
    (``opdev/op_executor.h``, ``aclnn/aclnn_base.h``, ``aclnn_kernels/*``, ``level0/*``). CANN builds
    such files into its operator-API library, not into the tiling library the simulator runs."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        text = files.get(current, "")
        if _OPERATOR_API_INCLUDE.search(text):
            return True
        folder = posixpath.dirname(current)
        for name in _QUOTED_INCLUDE.findall(text):
            for candidate in (posixpath.normpath(posixpath.join(folder, name)), f"op_host/{name}"):
                if candidate in files:
                    todo.append(candidate)
                    break
    return False


def host_sources(files: Mapping[str, str]) -> list[str]:
    """The host translation units the build compiles: :func:`is_host_source` names that are not
    operator-API library sources (:func:`is_operator_api_source`)."""
    return sorted(p for p in files if is_host_source(p) and not is_operator_api_source(p, files))


def check_project(files: dict[str, str], required: Iterable[str]) -> None:
    """An op project: the required files (the kernel entry) present and non-empty, and at least one
    host source. Raises :class:`ParseError`."""
    for path in required:
        if not files.get(path, "").strip():
            raise ParseError(f"required file {path} is missing or empty (found: {', '.join(sorted(files)) or 'none'})")
    if not any(files[p].strip() for p in host_sources(files)):
        raise ParseError("no host source: the project needs at least one op_host/*.cpp file (OpDef and tiling "
                         f"function; found: {', '.join(sorted(files)) or 'none'})")


def render_files(files: dict[str, str]) -> str:
    """The inverse of :func:`extract_files`: files as ``=== path ===`` headed fenced blocks."""
    parts = []
    for path, body in files.items():
        lang = "cpp"
        parts.append(f"=== {path} ===\n```{lang}\n{body.rstrip()}\n```\n")
    return "\n".join(parts)

"""Documentation folders -> chunks: markdown, HTML (tags stripped, scripts and styles dropped) and text
files, split at headings and then at paragraph boundaries to at most ``chunk_chars`` characters.

A chunk remembers its file, the heading path it sits under and whether its page is an API
reference page (``api_reference`` globs), which selects the API-call QA prompt.
"""

from __future__ import annotations

import fnmatch
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


class DocsError(ValueError):
    pass


@dataclass(frozen=True)
class Chunk:
    id: str                   # "<file>#<n>"
    path: str                 # file path relative to its docs root
    heading: str              # "Title > Section"
    text: str
    api: bool                 # from an API reference page


class _TextExtractor(HTMLParser):
    BLOCK = {"p", "div", "br", "li", "tr", "pre", "table", "section", "article", "h1", "h2", "h3", "h4", "h5", "h6"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("script", "style", "nav", "head"):
            self.skip += 1
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and not self.skip:
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "nav", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(text: str) -> str:
    parser = _TextExtractor()
    parser.feed(text)
    parser.close()
    out = html.unescape("".join(parser.parts))
    out = re.sub(r"[ \t]+\n", "\n", out)
    return re.sub(r"\n{3,}", "\n\n", out).strip()


def find_files(paths: Sequence[Path], include: Sequence[str]) -> list[tuple[Path, Path]]:
    """(root, file) pairs of every documentation file under ``paths`` matching ``include``, sorted."""
    found: list[tuple[Path, Path]] = []
    for root in paths:
        root = Path(root)
        if not root.exists():
            raise DocsError(f"documentation path {root} does not exist")
        if root.is_file():
            found.append((root.parent, root))
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and any(fnmatch.fnmatch(path.name, pat) for pat in include) \
                    and not any(part.startswith(".") for part in path.relative_to(root).parts):
                found.append((root, path))
    return found


def _sections(text: str) -> Iterable[tuple[str, str]]:
    """(heading path, body) per markdown section."""
    trail: list[tuple[int, str]] = []
    body: list[str] = []
    fenced = False

    def heading() -> str:
        return " > ".join(t for _, t in trail)

    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        m = None if fenced else _HEADING.match(line)
        if m:
            if "".join(body).strip():
                yield heading(), "\n".join(body).strip()
            body = [line]
            level = len(m.group(1))
            trail = [(lv, t) for lv, t in trail if lv < level] + [(level, m.group(2).strip())]
        else:
            body.append(line)
    if "".join(body).strip():
        yield heading(), "\n".join(body).strip()


def _split(body: str, limit: int) -> list[str]:
    if len(body) <= limit:
        return [body]
    pieces: list[str] = []
    current = ""
    for para in re.split(r"\n\s*\n", body):
        if len(para) > limit and current:
            pieces.append(current.strip())
            current = ""
        while len(para) > limit:                 # one huge paragraph (a long code block): hard split at lines
            cut = para.rfind("\n", 0, limit)
            cut = cut if cut > limit // 4 else limit
            pieces.append(para[:cut])
            para = para[cut:].lstrip("\n")
        if current and len(current) + len(para) + 2 > limit:
            pieces.append(current.strip())
            current = para
        else:
            current = f"{current}\n\n{para}" if current else para
    if current.strip():
        pieces.append(current.strip())
    return pieces


def load_chunks(paths: Sequence[Path], include: Sequence[str], api_reference: Sequence[str],
                chunk_chars: int) -> list[Chunk]:
    """Every chunk of every documentation file: consecutive sections are packed together up to
    ``chunk_chars`` characters (a chunk starts at a heading when it can); a longer section is split
    at paragraph boundaries."""
    chunks: list[Chunk] = []
    for root, path in find_files(paths, include):
        rel = path.relative_to(root).as_posix()
        try:
            raw = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise DocsError(f"cannot read {path}: {exc}") from None
        text = html_to_text(raw) if path.suffix.lower() in (".html", ".htm") else raw
        api = any(fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(path.name, pat) for pat in api_reference)
        pieces: list[tuple[str, str]] = []
        for head, body in _sections(text):
            pieces += [(head, part) for part in _split(body, chunk_chars)]
        packed: list[tuple[str, str]] = []
        for head, body in pieces:
            if packed and len(packed[-1][1]) + len(body) + 2 <= chunk_chars:
                packed[-1] = (packed[-1][0], f"{packed[-1][1]}\n\n{body}")
            else:
                packed.append((head, body))
        for n, (head, body) in enumerate(packed):
            if len(body.strip()) >= 20:
                chunks.append(Chunk(id=f"{rel}#{n}", path=rel, heading=head or rel, text=body, api=api))
    return chunks

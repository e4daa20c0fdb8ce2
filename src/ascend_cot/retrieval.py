"""Lexical retrieval over documentation chunks with BM25 (the ``bm25s`` library)."""

from __future__ import annotations

from collections.abc import Sequence

from ascend_cot.documents import Chunk


class Bm25Index:
    def __init__(self, chunks: Sequence[Chunk]):
        import bm25s

        self.chunks = list(chunks)
        self._bm25s = bm25s
        self._retriever = None
        if self.chunks:
            tokens = bm25s.tokenize([f"{c.heading}\n{c.text}" for c in self.chunks], stopwords="en",
                                    show_progress=False)
            self._retriever = bm25s.BM25()
            self._retriever.index(tokens, show_progress=False)

    def search(self, query: str, k: int, exclude: str | None = None) -> list[Chunk]:
        """The ``k`` best chunks for ``query`` (score > 0), ``exclude`` (a chunk id) left out."""
        if self._retriever is None or k <= 0:
            return []
        want = min(len(self.chunks), k + (1 if exclude else 0))
        query_tokens = self._bm25s.tokenize([query], stopwords="en", show_progress=False)
        try:
            ids, scores = self._retriever.retrieve(query_tokens, k=want, show_progress=False)
        except (ValueError, IndexError, KeyError):       # a query with no indexed word
            return []
        found = []
        for index, score in zip(ids[0].tolist(), scores[0].tolist(), strict=True):
            chunk = self.chunks[int(index)]
            if score <= 0 or chunk.id == exclude:
                continue
            found.append(chunk)
        return found[:k]

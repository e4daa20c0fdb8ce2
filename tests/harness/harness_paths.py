"""Paths the harness tests share (imported by name: ``conftest`` is ambiguous when other test folders
with a conftest of their own are collected in the same session)."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"

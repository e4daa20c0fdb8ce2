import pytest

from npukernelbench.extract import ParseError, extract_files, render_files

REQ = ("op_host/k.cpp", "op_kernel/k.cpp")


def test_header_and_info_labels_last_block_wins():
    text = """<think>draft:
=== op_kernel/k.cpp ===
```cpp
int draft;
```
</think>
Here it is.
=== op_host/k.cpp ===
```cpp
int host;
```
```cpp op_kernel/k.cpp
int first;
```
```cpp op_kernel/k.cpp
int last;
```
"""
    files = extract_files(text, REQ)
    assert files == {"op_host/k.cpp": "int host;\n", "op_kernel/k.cpp": "int last;\n"}


def test_roundtrip():
    files = {"op_host/k.cpp": "a\n", "op_kernel/k.cpp": "b\n", "op_host/k_tiling.h": "c\n"}
    assert extract_files(render_files(files), REQ) == files


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("no code here", "no fenced code block"),
    ("```cpp\nint x;\n```\n", "none labelled"),
    ("=== op_host/k.cpp ===\n```cpp\nint x;\n```\n", "required file op_kernel/k.cpp is missing"),
    ("=== ../etc/passwd ===\n```\nx\n```\n", "not an allowed path"),
    ("=== op_host/k.cpp ===\n```cpp\nx\n```\n=== op_kernel/k.cpp ===\n```cpp\n\n```\n", "is empty"),
    ("=== op_host/k.cpp ===\n```cpp\nint x;\n", "never closed"),
    ("x" * 1_000_001, "limit"),
])
def test_parse_errors(text, reason):
    with pytest.raises(ParseError, match=reason):
        extract_files(text, REQ)

"""benchmarks/api_coverage.py on a tiny reference tree and tiny headers written here (no ../shared):
a fully declared API, a partially declared one (an overload missing), a missing one, a page for another
chip only (excluded), an overview page (not an API), host helpers without a support section (they
inherit their family's: in beside a 910B API, out beside another chip's), markers counted from
decorators and module-level pytestmark, bad inputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "api_coverage.py"

SUPPORTED = """## 产品支持情况

- Atlas A3 训练系列产品/Atlas A3 推理系列产品：支持
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：支持
- Atlas 训练系列产品：不支持
"""
OTHER_CHIP = """## 产品支持情况

- Atlas A3 训练系列产品/Atlas A3 推理系列产品：不支持
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：不支持
- Ascend 950PR/Ascend 950DT：支持
"""

PAGES = {
    "Twice": SUPPORTED + """
## 函数原型

- one tensor

    ```cpp
    template <typename T>
    __aicore__ inline void Twice(const LocalTensor<T>& dst, uint32_t count)
    ```

- two tensors, with an optional flag

    ```cpp
    template <typename T, bool isSetMask = true>
    __aicore__ inline void Twice(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n, bool fast = false)
    ```

## 参数说明

T: half, float.
""",
    "Thrice": SUPPORTED + """
## 函数原型

```cpp
template <typename T>
__aicore__ inline void Thrice(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count)
template <typename T>
__aicore__ inline void Thrice(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, int32_t round)
```
""",
    "Halve": SUPPORTED + """
## 函数原型

```cpp
template <typename T>
__aicore__ inline void Halve(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count)
```
""",
    "Shrink": OTHER_CHIP + """
## 函数原型

```cpp
template <typename T>
__aicore__ inline void Shrink(const LocalTensor<T>& dst, uint32_t count)
```
""",
    "GetTwiceTmpSize": """# GetTwiceTmpSize

## 函数原型

```
void GetTwiceTmpSize(const uint32_t count, uint32_t& size)
```
""",
    "GetShrinkTmpSize": """# GetShrinkTmpSize

## 函数原型

```
void GetShrinkTmpSize(const uint32_t count, uint32_t& size)
```
""",
    "基础算术简介": "# intro\n\nSome words.\n",
}

README = """# reference

-   [SIMD API](SIMD-API/SIMD-API.md)
    -   [基础API](SIMD-API/基础API/基础API.md)
        -   [基础算术](SIMD-API/基础API/基础算术/基础算术.md)
            -   [基础算术简介](SIMD-API/基础API/基础算术/基础算术简介.md)
            -   [Twice](SIMD-API/基础API/基础算术/Twice.md)
            -   [Thrice](SIMD-API/基础API/基础算术/Thrice.md)
            -   [Halve](SIMD-API/基础API/基础算术/Halve.md)
            -   [GetTwiceTmpSize](SIMD-API/基础API/基础算术/GetTwiceTmpSize.md)
            -   [Shrink接口](SIMD-API/基础API/基础算术/Shrink接口.md)
                -   [Shrink](SIMD-API/基础API/基础算术/Shrink.md)
                -   [GetShrinkTmpSize](SIMD-API/基础API/基础算术/GetShrinkTmpSize.md)
"""

KERNEL_HEADER = """#pragma once
#include <cstdint>
#define __aicore__
namespace AscendC {
template <typename T> class LocalTensor {};
template <typename T> inline void Twice(const LocalTensor<T>&, uint32_t) {}
template <typename T, bool isSetMask = true>
inline void Twice(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t, bool = false) {}
template <typename T> inline void Thrice(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t) {}
}  // namespace AscendC
"""
HOST_HEADER = """#pragma once
#include <cstdint>
namespace AscendC {
inline void GetTwiceTmpSize(const uint32_t count, uint32_t& size) { size = count * 4; }
}  // namespace AscendC
"""
TESTS = """import pytest

pytestmark = [pytest.mark.api("基础算术/Thrice")]


@pytest.mark.api("Twice", "Nope")
def test_twice():
    assert True
"""


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    docs = tmp_path / "docs"
    folder = docs / "SIMD-API" / "基础API" / "基础算术"
    folder.mkdir(parents=True)
    (docs / "README.md").write_text(README, encoding="utf-8")
    for title, text in PAGES.items():
        (folder / f"{title}.md").write_text(f"# {title}\n\n{text}", encoding="utf-8")
    include = tmp_path / "include"
    (include / "tiling").mkdir(parents=True)
    (include / "kernel_operator.h").write_text(KERNEL_HEADER, encoding="utf-8")
    (include / "tiling" / "tiling_api.h").write_text(HOST_HEADER, encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_fixture_api.py").write_text(TESTS, encoding="utf-8")
    doc = tmp_path / "simulator.md"
    doc.write_text("# sim\n\n<!-- api-coverage:begin -->\nold\n<!-- api-coverage:end -->\n\nafter\n", encoding="utf-8")
    return {"docs": docs, "include": include, "tests": tests, "doc": doc}


def run(tree: dict[str, Path], *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(SCRIPT), "--docs", str(tree["docs"]), "--include", str(tree["include"]),
           "--tests", str(tree["tests"]), "--doc", str(tree["doc"]), "--corpus", "--quiet", *extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_statuses_and_markers(tree):
    out = run(tree, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    apis = {a["title"]: a for a in data["apis"]}
    # Shrink: other chip, and so its host helper (no support section of its own); 简介: not an API
    assert set(apis) == {"Twice", "Thrice", "Halve", "GetTwiceTmpSize"}
    assert apis["Twice"]["status"] == "full"
    assert [o["declared"] for o in apis["Twice"]["overloads"]] == [True, True]
    assert apis["Thrice"]["status"] == "partial"
    assert [o["declared"] for o in apis["Thrice"]["overloads"]] == [True, False]
    assert apis["Halve"]["status"] == "missing"
    assert apis["GetTwiceTmpSize"]["support"] == "inherited"
    assert apis["GetTwiceTmpSize"]["side"] == "host" and apis["GetTwiceTmpSize"]["status"] == "full"
    assert apis["Twice"]["tests"] and apis["Thrice"]["tests"] and not apis["Halve"]["tests"]
    assert data["totals"]["documented"] == 4 and data["totals"]["full"] == 2 and data["totals"]["tested"] == 2
    assert data["not_target_pages"] == 2
    assert any("'Nope'" in w for w in data["marker_warnings"])


def test_overload_without_default_argument_is_checked(tree):
    # The documented default of Twice's `fast` must be usable: without it the overload is not declared.
    header = tree["include"] / "kernel_operator.h"
    header.write_text(header.read_text().replace("uint32_t, bool = false)", "uint32_t, bool)"))
    data = json.loads(run(tree, "--json").stdout)
    twice = next(a for a in data["apis"] if a["title"] == "Twice")
    assert twice["status"] == "partial"


def test_table_lists_and_markdown(tree):
    out = run(tree, "--markdown")
    assert out.returncode == 0, out.stderr
    assert "total (in scope)" in out.stdout and "50%" in out.stdout
    text = tree["doc"].read_text()
    assert "| **total** | **4** | **2** |" in text and "old" not in text and text.endswith("after\n")
    partial = run(tree, "--list", "partial")
    assert "Thrice" in partial.stdout and "not declared: void Thrice(" in partial.stdout
    assert "Twice" not in partial.stdout
    missing = run(tree, "--list", "missing", "--family", "基础API/基础算术")
    assert missing.stdout.strip().splitlines() == ["基础API/基础算术 | 基础算术/Halve | missing (kernel)"]


def test_floors(tree):
    assert run(tree, "--min-declared", "50", "--min-tested", "50").returncode == 0
    low = run(tree, "--min-declared", "60")
    assert low.returncode == 1 and "declared 50% < 60.0%" in low.stderr


def test_missing_docs_folder_is_one_line(tree, tmp_path):
    out = run({**tree, "docs": tmp_path / "nowhere"})
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "no AscendC API reference" in out.stderr
    assert run(tree, "--family", "x").returncode == 2          # --family without --list: misuse


def test_page_side_comes_from_the_prototypes_not_the_examples() -> None:
    """A 'X Tiling' page shows a kernel in its call example: its helpers are still host functions."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import coverage, doc_tree

    page = doc_tree.ApiPage("Foo Tiling", "x/Foo-Tiling.md", ("SIMD-API", "高阶API", "Foo"), "高阶API/Foo", "inherited")
    host_text = ("# Foo Tiling\n## 函数原型\n```\nvoid GetFooTilingInfo(const ge::Shape& s, uint32_t& x)\n```\n"
                 "## 调用示例\n```\nextern \"C\" __global__ __aicore__ void foo(GM_ADDR t) {}\n```\n")
    assert coverage.page_side(page, host_text) == "host"
    kernel_text = "# Foo\n## 函数原型\n```\n__aicore__ inline void Foo(const LocalTensor<float>& d)\n```\n"
    assert coverage.page_side(page, kernel_text) == "kernel"


def test_a_const_reference_template_parameter_gets_a_static_object() -> None:
    """TransData<const TransDataConfig& config, ...> has no default: the probe names an object of static storage."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import codegen, probes
    from benchmarks.apicov.prototypes import TParam

    assert codegen._value_for(TParam("value", "config", "const TransDataConfig&")) == "::npukb_ref<TransDataConfig>"
    assert codegen._value_for(TParam("value", "cfg", "Cfg&")) == ""          # a mutable one has none
    assert "npukb_ref" in probes.prelude(("kernel_operator.h",), ("AscendC",))


def test_packs_assignment_and_conversion_operators_are_probed() -> None:
    """A type pack takes one element (``tuple<Tps...>&`` -> ``tuple<int8_t>&``, ``Tps&&... args`` one
    argument); ``operator=`` in a class body is an operator, not a field initialised with ``=``; a
    conversion function is called by name on the fixture."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import codegen, prototypes
    from benchmarks.apicov.fixtures import ClassFixture

    assert codegen.substitute("const tuple<Tps...>&", {"Tps": "int"}) == "const tuple<int>&"
    assert codegen.substitute("Tps&&...", {"Tps": "int"}) == "int&&"
    assert codegen.substitute("const Tps&...", {"Tps": "int"}) == "const int&"
    [get] = prototypes.parse_block("template <size_t N, typename ...Tps>\n"
                                   "__aicore__ inline int& get(tuple<Tps...>& t) noexcept\n")
    [[probe]] = codegen.function_snippets(get, 1, ("int8_t",), (), "AscendC")
    assert "get<size_t{}>(std::declval<std::add_lvalue_reference_t<tuple<int8_t>&>>())" in probe
    [make] = prototypes.parse_block("template <typename ...Tps>\ninline tuple<Tps...> make_tuple(Tps&& ...args)\n")
    [[probe]] = codegen.function_snippets(make, 1, ("int8_t",), (), "AscendC")
    assert "make_tuple(std::declval<int8_t&&>())" in probe

    body = prototypes.parse_block("template <typename Tp, Tp v>\nstruct C {\n  using value_type = Tp;\n"
                                  "  inline constexpr operator value_type() const noexcept;\n"
                                  "  template <typename U>\n  C& operator=(const C<U, 0>& t);\n};\n")
    kinds = {(o.kind, o.name) for o in body}
    assert ("operator", "operator=") in kinds and ("operator", "operatorvalue_type") in kinds
    conv = next(o for o in body if o.name == "operatorvalue_type")
    fx = (ClassFixture("C<int, 1>", "", {"Tp": "int", "v": "1"}),)
    [alts] = codegen.function_snippets(conv, 1, ("int",), fx, "")
    assert any("std::declval<const C<int, 1>&>().operator value_type()" in a for a in alts)


def test_an_out_of_class_member_definition_is_a_member_of_its_class() -> None:
    """``template <Hardware hard> uint32_t LocalMemAllocator<hard>::GetCurAddr() const``: ``hard`` is the
    class's parameter (the member itself is no template), and ``Owner<hard>::Owner()`` is a constructor."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import prototypes

    [get] = prototypes.parse_block("template <Hardware hard>\n"
                                   "__aicore__ inline uint32_t LocalMemAllocator<hard>::GetCurAddr() const\n")
    assert (get.kind, get.name, get.owner, get.template, get.const) == ("function", "GetCurAddr",
                                                                       "LocalMemAllocator", (), True)
    [ctor] = prototypes.parse_block("template <Hardware hard>\n"
                                    "__aicore__ inline LocalMemAllocator<hard>::LocalMemAllocator()\n")
    assert (ctor.kind, ctor.name) == ("constructor", "LocalMemAllocator")
    [alloc] = prototypes.parse_block("template <typename T> template <class D>\n"
                                     "__aicore__ inline D* Pool<T>::Take(uint32_t n)\n")
    assert [tp.name for tp in alloc.template] == ["D"] and alloc.owner == "Pool"


def test_the_probe_prelude_has_a_custom_buf_pool_class() -> None:
    """The members EXTERN_IMPL_BUFPOOL defines are probed on a user class written with the macro."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import probes
    from benchmarks.apicov.fixtures import CLASS_FIXTURES

    assert "EXTERN_IMPL_BUFPOOL(npukb_custom_bufpool" in probes.prelude(("kernel_operator.h",), ("AscendC",))
    assert CLASS_FIXTURES["自定义TBufPool"][0].type == "::npukb_custom_bufpool"


def test_a_class_overview_page_is_documented_where_its_member_pages_are() -> None:
    """A page without a support section that declares ``class Mutex { Lock(...); Unlock(...); }`` takes the
    support of its group's Lock / Unlock pages, not of the whole group."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import doc_tree

    lock = doc_tree.Node("Lock", "g/Lock.md", ("g",))
    unlock = doc_tree.Node("Unlock", "g/Unlock.md", ("g",))
    other = doc_tree.Node("PipeBarrier", "g/PipeBarrier.md", ("g",))
    group = doc_tree.Node("g", "g/g.md", (), [lock, unlock, other])
    text = "```cpp\nclass Mutex {\ntemplate <pipe_t pipe>\nstatic void Lock(MutexID id);\n" \
           "template <pipe_t pipe>\nstatic void Unlock(MutexID id);\n};\n```\n"
    own = {id(lock): "no", id(unlock): "no", id(other): "yes"}
    assert doc_tree.class_members_verdict(text, group, own) == "no"
    own[id(unlock)] = "yes"
    assert doc_tree.class_members_verdict(text, group, own) == "yes"
    assert doc_tree.class_members_verdict("```\nvoid PipeBarrier();\n```\n", group, own) == "none"


def test_function_like_macros_written_as_their_use_are_macros() -> None:
    """assert's pages write ``define assert(expr)`` (no '#') and ``assert(expr)`` (untyped arguments, no
    return type): both are macros; a typed declaration without a return type stays no declaration."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import prototypes

    [a, b] = prototypes.parse_block("define assert(expr)\n"
                                    "define assert(expr, __gm__ const char *fmt, Args&&... args)\n")
    assert (a.kind, a.name, len(a.params)) == ("macro", "assert", 1)
    assert (b.kind, b.name, len(b.params)) == ("macro", "assert", 3)
    [c] = prototypes.parse_block("assert(expr)\n")
    assert (c.kind, c.name) == ("macro", "assert")
    assert prototypes.parse_block("foo(int x)\n") == []


def test_an_array_reference_parameter_keeps_its_type() -> None:
    """``const LocalTensor<T> (&dstList)[N]`` (TransDataTo5HD's list form) is a reference to an array, not a pointer."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import prototypes

    params = prototypes.parse_params(prototypes.tokenize("const LocalTensor<T> (&dstList)[LIST_SIZE], uint64_t a[16]"))
    assert [(p.type, p.name) for p in params] == [("const LocalTensor<T>(&)[LIST_SIZE]", "dstList"), ("uint64_t*", "a")]


def test_a_constructor_page_of_a_family_probes_its_classes_in_their_namespace() -> None:
    """MatmulApiTiling(const PlatformInfo&) on the 'Matmul Tiling类构造函数' page: PlatformInfo is looked up in
    matmul_tiling (another searched namespace may declare a PlatformInfo of its own)."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import coverage
    from benchmarks.apicov.fixtures import CLASS_FIXTURES

    [fx] = coverage._in_homes("MatmulApiTilingBase", CLASS_FIXTURES["Matmul Tiling类"])
    assert (fx.type, fx.home) == ("matmul_tiling::MatmulApiTilingBase", "matmul_tiling")


def test_overloads_the_support_lines_give_to_other_chips_are_not_counted() -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks.apicov import coverage, prototypes

    page = ("## 产品支持情况\n\n- Atlas A3 训练系列产品/Atlas A3 推理系列产品：仅支持包含FooParamsV2参数的接口。\n"
            "- Atlas A2 训练系列产品/Atlas A2 推理系列产品：仅支持包含FooParamsV2参数的接口。\n"
            "- Atlas 200I/500 A2 推理产品：仅支持包含FooParamsM3参数的接口。\n\n## 函数原型\n\n")
    protos = ("```\ntemplate <typename T>\n__aicore__ inline void Foo(const LocalTensor<T>& d, const FooParamsV2& p)\n"
              "template <typename T>\n__aicore__ inline void Foo(const LocalTensor<T>& d, const FooParamsM3& p)\n"
              "__aicore__ inline void Bar(const uint64_t dataPtr)\n__aicore__ inline void Bar(T dataPtr)\n```\n")
    notes = ("Atlas A3 训练系列产品/Atlas A3 推理系列产品不支持Bar\\(T dataPtr\\)接口原型。\n"
             "Atlas A2 训练系列产品/Atlas A2 推理系列产品不支持Bar\\(T dataPtr\\)接口原型。\n")
    overloads = prototypes.page_overloads(page + protos).overloads
    assert len(overloads) == 4
    kept = coverage.for_target(overloads, page + protos + notes)
    assert [ov.label for ov in kept] == [overloads[0].label, overloads[2].label]
    # one chip's refusal is not both: the overload stays
    assert len(coverage.for_target(overloads, page + protos + notes.splitlines()[0])) == 3

"""benchmarks/doc_examples.py on a tiny reference tree and tiny headers written here (no ../shared): a call
example that compiles (statements, and a class at namespace scope), one with free variables (a fragment),
ones with real errors (a documented API our headers lack, a wrong call, a header-defined name out of
reach), a block marked for 310P only (not counted), a shell block and an output dump (not C++), a host
example; the wrapping rules on their own; misuse."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "doc_examples.py"
sys.path.insert(0, str(ROOT / "benchmarks"))

from apicov import example_shape, examples, known_names  # noqa: E402

SUPPORTED = """## 产品支持情况

- Atlas A3 训练系列产品/Atlas A3 推理系列产品：支持
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：支持
"""

PAGES = {
    "Twice": SUPPORTED + """
## 函数原型

```cpp
template <typename T>
__aicore__ inline void Twice(const LocalTensor<T>& dst, uint32_t count)
```

## 调用示例

```cpp
AscendC::LocalTensor<float> dst;
AscendC::Twice(dst, 16);
```

<!-- npu="310p" id1 -->
```cpp
AscendC::Twice310(dst, 16, 1);
```
<!-- end id1 -->

```bash
bash run.sh; ./main
```

```
$ ./build.sh; ./main
```

输入数据和输出数据：

```
输入数据(src): {1 2 3}
输出数据(dst): {2 4 6}
```

```cpp
class KernelTwice {
public:
    __aicore__ inline void Process()
    {
        AscendC::Twice(buf, 32);
    }
private:
    AscendC::LocalTensor<half> buf;
};
```
""",
    "Thrice": SUPPORTED + """
## 函数原型

```cpp
template <typename T>
__aicore__ inline void Thrice(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count)
```

## 调用示例

```cpp
AscendC::Thrice(dstLocal, srcLocal, 16);
```

```cpp
AscendC::LocalTensor<float> a;
AscendC::Thrice(a, a, 1, 2, 3);
```

```cpp
uint32_t n = npukbHidden;
```
""",
    "Halve": SUPPORTED + """
## 函数原型

```cpp
template <typename T>
__aicore__ inline void Halve(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count)
```

## 调用示例

```cpp
AscendC::LocalTensor<float> x;
AscendC::Halve(x, x, 8);
```
""",
    "GetTwiceTmpSize": """# GetTwiceTmpSize

## 函数原型

```
void GetTwiceTmpSize(const uint32_t count, uint32_t& size)
```

## 调用示例

```cpp
uint32_t size = 0;
AscendC::GetTwiceTmpSize(1024, size);
return size;
```
""",
}

README = """# reference

-   [SIMD API](SIMD-API/SIMD-API.md)
    -   [基础API](SIMD-API/基础API/基础API.md)
        -   [基础算术](SIMD-API/基础API/基础算术/基础算术.md)
            -   [Twice](SIMD-API/基础API/基础算术/Twice.md)
            -   [Thrice](SIMD-API/基础API/基础算术/Thrice.md)
            -   [Halve](SIMD-API/基础API/基础算术/Halve.md)
            -   [GetTwiceTmpSize](SIMD-API/基础API/基础算术/GetTwiceTmpSize.md)
"""

KERNEL_HEADER = """#pragma once
#include <cstdint>
#define __aicore__
using half = float;
namespace AscendC {
template <typename T> class LocalTensor {};
template <typename T> inline void Twice(const LocalTensor<T>&, uint32_t) {}
template <typename T> inline void Thrice(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t) {}
}  // namespace AscendC
namespace npukb_sim { constexpr int npukbHidden = 3; }
"""
HOST_HEADER = """#pragma once
#include <cstdint>
namespace AscendC {
inline void GetTwiceTmpSize(const uint32_t count, uint32_t& size) { size = count * 4; }
}  // namespace AscendC
"""


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    docs = tmp_path / "docs"
    folder = docs / "SIMD-API" / "基础API" / "基础算术"
    folder.mkdir(parents=True)
    (docs / "README.md").write_text(README, encoding="utf-8")
    for name, text in PAGES.items():
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    include = tmp_path / "include"
    (include / "tiling").mkdir(parents=True)
    (include / "kernel_operator.h").write_text(KERNEL_HEADER, encoding="utf-8")
    (include / "tiling" / "tiling_api.h").write_text(HOST_HEADER, encoding="utf-8")
    return {"docs": docs, "include": include}


def run(tree: dict[str, Path], *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(SCRIPT), "--docs", str(tree["docs"]), "--include", str(tree["include"]), "--quiet",
           *extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_each_block_classified(tree):
    out = run(tree, "--json")
    assert out.returncode == 0, out.stderr
    *body, last = out.stdout.strip().splitlines()
    blocks = {(b["title"], b["index"]): b for b in json.loads("\n".join(body))}
    # Twice: the 310P block is gone before indexing; bash, shell and the dump are skipped (indices 1-3)
    assert set(blocks) == {("Twice", 0), ("Twice", 4), ("Thrice", 0), ("Thrice", 1), ("Thrice", 2), ("Halve", 0),
                           ("GetTwiceTmpSize", 0)}
    assert blocks[("Twice", 0)]["status"] == "compiles"
    assert blocks[("Twice", 4)]["status"] == "compiles"            # a class: at namespace scope
    assert blocks[("GetTwiceTmpSize", 0)]["side"] == "host"
    assert blocks[("GetTwiceTmpSize", 0)]["status"] == "compiles"  # statements and a return, host side
    frag = blocks[("Thrice", 0)]
    assert frag["status"] == "fragment" and frag["free_names"] == ["dstLocal", "srcLocal"]
    wrong = blocks[("Thrice", 1)]
    assert wrong["status"] == "fails" and "no matching function" in wrong["cause"]
    # a name our headers define (out of reach here) is not the example's own: a gap, not a fragment
    hidden = blocks[("Thrice", 2)]
    assert hidden["status"] == "fails" and "npukbHidden" in hidden["cause"]
    # a documented API the headers lack
    halve = blocks[("Halve", 0)]
    assert halve["status"] == "fails" and "Halve" in halve["cause"]
    summary = json.loads(last)
    assert summary == {**summary, "blocks": 7, "compiles": 3, "fragments": 1, "fails": 3, "compile_rate": 0.5,
                       "skipped": 3}


def test_table_and_lists(tree):
    out = run(tree)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].split()[:5] == ["family", "blocks", "comp", "frag", "fail"]
    assert lines[-3].split()[:6] == ["total", "7", "3", "1", "3", "50%"]
    assert "skipped (not C++): 3" in lines[-2]
    assert json.loads(lines[-1])["blocks"] == 7
    fails = run(tree, "--list", "fails").stdout.strip().splitlines()[:-1]
    assert sorted(ln.split(" | ")[1].split(" ")[0].rsplit("/", 1)[1] for ln in fails) == [
        "Halve.md#0", "Thrice.md#1", "Thrice.md#2"]
    frags = run(tree, "--list", "fragments").stdout.strip().splitlines()[:-1]
    assert len(frags) == 1 and frags[0].endswith("free: dstLocal, srcLocal")
    only = json.loads(run(tree, "--family", "basic/arith").stdout.strip().splitlines()[-1])
    assert only["blocks"] == 7
    none = json.loads(run(tree, "--family", "high-level").stdout.strip().splitlines()[-1])
    assert none["blocks"] == 0 and none["compile_rate"] is None


def test_misuse_exits_2(tree, tmp_path):
    out = run({**tree, "docs": tmp_path / "nowhere"})
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "README.md" in out.stderr
    out = run({**tree, "include": tmp_path / "noheaders"})
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("label", "code", "reason"), [
    ("bash", "make -j8; ./a.out\n", "labelled bash"),
    ("", "输入数据: [1, 2]\n", "no ; nor {"),
    ("", "输出数据: {1, 2};\n", "text outside code (non-ASCII outside comments and strings)"),
    ("", "./build.sh --soc=x; echo {}\n", "shell commands"),
    ("", '{"op": "Add", "inputs": [1]}\n', "JSON"),
    ("cpp", "int x = 1; // 中文注释\nconst char* s = \"中文\";\n", ""),
])
def test_not_cpp(label, code, reason):
    assert examples.not_cpp(label, code) == reason


def test_items_and_definitions():
    code = """#define N 8
template <typename T> struct Pair { T a; T b; } pair;
__aicore__ inline void Kernel::Run(int x) { if (x) { return; } }
int table[] = {1, 2};
auto f = [](int a) { return a; };
for (int i = 0; i < N; ++i) { f(i); }
BEGIN_TILING_DATA_DEF(MyTiling)
TILING_DATA_FIELD_DEF(uint32_t, len);
END_TILING_DATA_DEF;
using A_TYPE = MatmulType<half>;
constexpr MatmulConfig CFG = GetNormalConfig();
using namespace AscendC;
"""
    its = [i.strip() for i in example_shape.items(code)]
    assert [example_shape.is_definition(i) for i in its] == [True, True, True, False, False, False, True, True,
                                                             True, True, False]
    assert its[1].endswith("pair;") and its[3] == "int table[] = {1, 2};" and its[4].endswith("};")


def test_wrap_shapes(tmp_path):
    (tmp_path / "kernel_operator.h").write_text("", encoding="utf-8")
    mixed = '#include "kernel_operator.h"\n#include "my_tiling.h"\nstruct S { int v; };\nextern "C" ' \
            '__global__ void k() {}\nS s;\n...\n'
    w = example_shape.wrap(mixed, "kernel", "ns1", [tmp_path])
    assert w.dropped == ['#include "my_tiling.h"'] and not w.alone
    code = w.code
    assert code.index('#include "kernel_operator.h"') < code.index("namespace ns1 {") < code.index("struct S") \
        < code.index("__aicore__ inline auto npukb_example() {") < code.index("S s;")
    assert 'extern "C"' not in code and "using namespace AscendC;" in code and "..." not in code
    host = example_shape.wrap("#define M 2\nint y = M;\n", "host", "ns2", [tmp_path])
    assert "using namespace ops;" in host.code and "inline auto npukb_example() {" in host.code
    assert host.code.rstrip().endswith("#undef M")
    op = example_shape.wrap('this->Input("x");\n', "host", "ns4", [tmp_path]).code
    assert "npukb_example_op(const char* name) : ops::OpDef(name) {" in op and "npukb_example()" not in op
    own = example_shape.wrap("namespace optiling {\nstruct T {};\n}\n", "host", "ns3", [tmp_path])
    assert own.alone and "ns3" not in own.code


def test_classify_rule():
    b = examples.Block(page=None, index=0, code="")  # type: ignore[arg-type]
    examples.classify(b, [(3, "‘srcLocal’ was not declared in this scope"), (4, "'T' does not name a type")],
                      {"Add"})
    assert b.status == "fragment" and b.free_names == ["srcLocal", "T"]
    examples.classify(b, [(3, "‘Add’ was not declared in this scope")], {"Add"})
    assert b.status == "fails" and b.free_names == [] and b.cause.startswith("‘Add’")
    examples.classify(b, [(3, "‘x’ was not declared in this scope"), (5, "expected ‘;’ before ‘}’ token")], set())
    assert b.status == "fails" and b.cause == "expected ‘;’ before ‘}’ token"
    # parse consequences of an unknown name on a line that names it are not causes; elsewhere they are
    code = "x = que.AllocTensor<half>();\nque.EnQue<half>(x);\ny = other.Get<half>();\n"
    que = [(1, "‘que’ was not declared in this scope"), (1, "expected primary-expression before ‘>’ token"),
           (2, "expected primary-expression before ‘>’ token")]
    examples.classify(b, que, set(), code)
    assert b.status == "fragment" and b.free_names == ["que"]
    examples.classify(b, [*que, (3, "expected primary-expression before ‘>’ token")], set(), code)
    assert b.status == "fails" and b.cause.startswith("expected primary-expression")
    # a statement over several lines is one statement
    code = "Call(que,\n     x.Get<half>());\nOther(y.Get<half>());\n"
    split = [(1, "‘que’ was not declared in this scope"), (2, "expected primary-expression before ‘>’ token")]
    examples.classify(b, split, set(), code)
    assert b.status == "fragment"
    examples.classify(b, [*split, (3, "expected primary-expression before ‘>’ token")], set(), code)
    assert b.status == "fails"
    # a variable declared where a free name was reported is an error (int): requests for its members follow
    code = "Params<T> params;\nparams.h = 1;\nint q = 0;\nq.h = 2;\n"
    bad = [(1, "‘T’ was not declared in this scope"), (1, "template argument 1 is invalid"),
           (2, "request for member ‘h’ in ‘params’, which is of non-class type ‘int’")]
    examples.classify(b, bad, set(), code)
    assert b.status == "fragment" and b.free_names == ["T"]
    examples.classify(b, [*bad, (4, "request for member ‘h’ in ‘q’, which is of non-class type ‘int’")], set(), code)
    assert b.status == "fails" and "‘q’" in b.cause
    # a variable whose declaration named a free type: later parse errors in its statements follow from it
    code = "Matmul<aType> mm;\nmm.SetTensorA(a);\nint k = 0;\nk.x();\n"
    mm = [(1, "‘aType’ was not declared in this scope"), (1, "template argument 1 is invalid"),
          (2, "expected primary-expression before ‘.’ token")]
    examples.classify(b, mm, {"a"}, code)
    assert b.status == "fragment" and b.free_names == ["aType"]
    examples.classify(b, [*mm, (4, "expected primary-expression before ‘.’ token")], {"a"}, code)
    assert b.status == "fails"
    # an initializer or call whose operand names a free name: g++ reports the braces or "<expression error>"
    code = "DataCopyExtParams p{1, cols * 2, 0, 0, 0};\nDataCopyExtParams q{1, 2, 0};\nConfig c = {n, 1};\n"
    ext = [(1, "‘cols’ was not declared in this scope"),
           (1, "no matching function for call to ‘DataCopyExtParams::DataCopyExtParams(<brace-enclosed initializer "
               "list>)’")]
    examples.classify(b, ext, set(), code)
    assert b.status == "fragment" and b.free_names == ["cols"]
    examples.classify(b, [*ext, (2, ext[1][1])], set(), code)
    assert b.status == "fails" and b.cause.startswith("no matching function"), "the same error without a free name"
    code2 = "LocalTensor<T> x = q.AllocTensor<T>();\nSetAtomicAdd<T>();\nSetAtomicAdd<float>();\n"
    tmpl = [(1, "‘T’ was not declared in this scope"), (2, "no matching function for call to ‘SetAtomicAdd<T>()’")]
    examples.classify(b, tmpl, set(), code2)
    assert b.status == "fragment" and b.free_names == ["T"]
    examples.classify(b, [*tmpl, (3, "no matching function for call to ‘SetAtomicAdd<float>()’")], set(), code2)
    assert b.status == "fails" and "<float>" in b.cause
    # a variable declared in a statement that g++ reported only as a consequence is tainted too
    # (g++ names an undeclared name once: `Pad<T> pad;` after it has no error of its own)
    code3 = ("Ext p{1, cols * sizeof(T), 0};\nPad<T> pad;\npad.isPad = false;\nPad<T> two{true, 0};\nint z;\n"
             "z.isPad = 1;\n")
    pad = [(1, "‘cols’ was not declared in this scope"), (1, "‘T’ was not declared in this scope"),
           (3, "request for member ‘isPad’ in ‘pad’, which is of non-class type ‘int’"),
           (4, "template argument 1 is invalid"), (4, "scalar object ‘two’ requires one element in initializer")]
    examples.classify(b, pad, set(), code3)
    assert b.status == "fragment" and b.free_names == ["cols", "T"]
    examples.classify(b, [*pad, (6, "request for member ‘isPad’ in ‘z’, which is of non-class type ‘int’")], set(),
                      code3)
    assert b.status == "fails" and "‘z’" in b.cause
    conv = [(3, "‘n’ was not declared in this scope"),
            (3, "could not convert ‘{<expression error>, 1}’ from ‘<brace-enclosed initializer list>’ to ‘Config’")]
    examples.classify(b, conv, set(), code)
    assert b.status == "fragment" and b.free_names == ["n"]
    examples.classify(b, [], set())
    assert b.status == "compiles"


def test_header_names(tmp_path):
    (tmp_path / "a.h").write_text("""#define MAC 1
namespace NS { enum class Mode { FAST, SLOW = 2 }; struct Cfg { using Inner = int; }; using Alias = int;
typedef unsigned Word; constexpr int kLimit = 3;
inline void Run(const int count = 0, int dst = 1) { int local = 2; } }
""", encoding="utf-8")
    names = known_names.header_names(tmp_path)
    assert {"MAC", "Mode", "FAST", "SLOW", "Cfg", "Alias", "Word", "kLimit", "Run"} <= names
    assert not {"count", "dst", "local", "Inner", "NS"} & names      # nor a namespace: not a variable's rival


def test_errors_placed_by_macro_expansion_note():
    from apicov import probes
    ranges = [(10, 14), (15, 20)]
    stderr = ("/inc/register/tilingdata_base.h:148:2: error: expected primary-expression before ‘private’\n"
              "/tmp/x/probe_host.cpp:17:1: note: in expansion of macro ‘BEGIN_TILING_DATA_DEF’\n"
              "/tmp/x/probe_host.cpp:11:3: error: ‘a’ was not declared in this scope\n")
    errors, clean = probes.attribute_all(stderr, "probe_host.cpp", ranges)
    assert clean and errors == {1: [(3, "expected primary-expression before ‘private’")],
                                0: [(2, "‘a’ was not declared in this scope")]}
    errors, clean = probes.attribute_all(stderr.splitlines(True)[0], "probe_host.cpp", ranges)
    assert not clean and errors == {}

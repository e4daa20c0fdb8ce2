"""The documented API pages of the AscendC reference, as the simulator's coverage counts them.

The reference's ``README.md`` is a nested markdown list of ``[Title](path.md)`` links: its leaves are
pages, its inner nodes groups. A leaf is an *API page* unless its title or a group above it names an
overview, introduction, example, feature description or list (:data:`NOT_API`). Whether an API page is
*documented for 910B/A3*:

* its "产品支持情况" section names the Atlas A2 or the Atlas A3 training series as supported
  (``支持``, ``仅支持...``): yes; a section that names neither as supported: no (another chip's API);
* a page without that section (host-side helpers: ``GetXxxMaxMinTmpSize``, tiling functions, OpDef
  registration, platform queries, ...) inherits from its family: the nearest enclosing group that has
  pages with a support section decides; it is in when one of those pages is supported on 910B/A3
  (``GetHypotMaxMinTmpSize`` is out because ``Hypot`` itself is not documented for 910B); except a page
  that declares a class whose members have pages of their own in its group: those pages decide (the
  ``Mutex`` overview is out because its ``Lock`` and ``Unlock`` are not documented for 910B).

Families are the groups of the tree (two levels below the API kind, three under Memory矢量计算), each
with an English label. Families outside the simulator's scope (:data:`OUT_OF_SCOPE`) are reported
separately, with their counts and how often the test corpora use their names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SUPPORT_HEADING = re.compile(r"^##\s*产品支持情况.*?$(.*?)(?=^##\s|\Z)", re.M | re.S)
TARGET_LINE = re.compile(r"Atlas\s+A[23]\s+训练系列产品")
SUPPORTED = re.compile(r"[：:]\s*(?:仅)?支持")
LINK = re.compile(r"^(\s*)[-*]\s+\[(.*)\]\((.*?\.md)\)")

# Titles (and group titles) that are not APIs: overviews, introductions, usage notes, examples, lists,
# feature descriptions, appendices.
NOT_API = re.compile(
    r"简介|概述|概览|导览|更多样例|样例|通用说明|使用说明|说明$|列表|介绍|汇总|概念|流程|特性|约束|"
    r"数据通路|错误码|层次化表述法|分形|内置数据类型|精度转换|逻辑架构|模板参数$|^连续计算$|^高维切分$|^掩码$")
# Groups whose pages are all descriptions, not APIs.
NOT_API_GROUP = re.compile(r"概述|概览|导览|分形介绍|特性说明|SIMD计算说明|逻辑架构|附录")

# Families outside the simulator's scope: (tree path prefix, English label, reason).
OUT_OF_SCOPE: tuple[tuple[str, str, str], ...] = (
    ("SIMD API/C API", "C API (asc_*)",
     "the pointer-based C API: no kernel of the test corpora calls it; the simulator implements the C++ API"),
    ("SIMT API", "SIMT API",
     "single-instruction multi-thread kernels (Ascend 950): no 910B/A3 support and no corpus kernel uses it"),
    ("SIMD API/高阶API/HCCL通信类", "HCCL communication",
     "multi-card collective communication: the simulator runs one card"),
    ("AI CPU API", "AI CPU API", "AI CPU operators run on the host CPUs, not on the AI Core the simulator models"),
    ("Utils API/原型注册与管理/OpAICPUDef", "OpAICPUDef (AI CPU registration)",
     "registers AI CPU operators, which the simulator does not run"),
    ("Utils API/原型注册与管理/OpHostCPUDef", "OpHostCPUDef (host CPU registration)",
     "registers host-CPU operators, which the simulator does not run"),
    ("Utils API/原型注册与管理/OpMC2Def", "OpMC2Def (MC2 registration)",
     "computation-communication fusion (MC2) needs HCCL, which the simulator does not model"),
    ("Utils API/RTC", "RTC (runtime compilation)",
     "compiles kernels at run time with the device compiler (aclrtc*), which the simulator does not have"),
    ("Utils API/SuperKernel", "SuperKernel", "fuses several operators' kernels into one launch on the device"),
)

# English labels of family path segments; a segment not listed keeps its own text.
LABELS: dict[str, str] = {
    "SIMD API": "SIMD", "基础API": "basic", "高阶API": "high-level", "Utils API": "utils", "C API": "C API",
    "数据结构": "data structures", "数据结构(TensorAPI)": "data structures (Tensor API)",
    "辅助数据结构": "auxiliary data structures", "数据搬运导览": "data movement guide",
    "矩阵计算（ISASI）": "cube compute (ISASI)", "矩阵计算（TensorAPI）": "cube compute (Tensor API)",
    "Memory矢量计算": "memory vector", "Reg矢量计算": "register vector", "标量计算": "scalar",
    "资源管理": "memory management and queues", "同步控制": "synchronisation", "缓存控制": "cache control",
    "原子操作": "atomics", "调试接口": "debugging", "工具接口": "system variables and tools",
    "Cube分组管理（ISASI）": "cube groups (ISASI)", "Kernel Tiling": "kernel tiling macros",
    "特殊寄存器访问": "special registers",
    "数据搬运": "data copy", "数据搬运辅助配置接口": "data copy config", "基础算术": "arithmetic",
    "逻辑计算": "logic", "复合计算": "fused", "比较与选择": "compare and select", "类型转换": "cast",
    "类型转换辅助配置接口": "cast config", "归约计算": "reduce", "归约计算辅助配置接口": "reduce config",
    "数据排布转换": "layout transform", "数据填充": "fill", "排序组合（ISASI）": "sort and merge (ISASI)",
    "离散与聚合": "gather", "掩码操作": "mask", "数据重排（ISASI）": "rearrange (ISASI)",
    "数学计算": "math", "矩阵计算": "matmul", "激活函数": "activation", "归一化操作": "normalization",
    "量化操作": "quantization", "归约操作": "reduction", "排序操作": "sort", "索引计算": "index",
    "数据过滤": "filter", "张量变换": "tensor transform", "HCCL通信类": "HCCL", "卷积计算": "convolution",
    "随机函数": "random", "C++标准库": "C++ standard library", "平台信息获取": "platform",
    "原型注册与管理": "op registration (OpDef)", "Tiling数据结构注册": "tiling data registration",
    "Tiling调测": "tiling debugging", "Tiling模板编程": "tiling templates", "Tiling下沉": "tiling sink",
    "RTC": "RTC", "log": "log", "调测接口": "debugging", "SuperKernel": "SuperKernel",
    "AI CPU API": "AI CPU", "SIMT API": "SIMT",
}


@dataclass
class Node:
    title: str
    path: str                       # relative to the docs folder
    ancestors: tuple[str, ...]      # group titles, root first
    children: list[Node] = field(default_factory=list)


@dataclass(frozen=True)
class ApiPage:
    """One documented API: a leaf page of the reference tree."""

    title: str
    path: str
    ancestors: tuple[str, ...]
    family: str                     # tree path of its family ("基础API/Memory矢量计算/基础算术")
    support: str                    # "yes" | "inherited" (no section, the family is 910B/A3) | "no"
    out_of_scope: str = ""          # reason, when the family is outside the simulator's scope

    @property
    def parent(self) -> str:
        return self.ancestors[-1] if self.ancestors else ""

    @property
    def qualified(self) -> str:
        return f"{self.parent}/{self.title}" if self.parent else self.title


class DocsError(ValueError):
    """The docs folder is not an AscendC API reference."""


def unescape(title: str) -> str:
    return re.sub(r"\\(.)", r"\1", title).strip()


def parse_tree(readme: str) -> list[Node]:
    """The nested list of ``README.md`` as nodes (roots first, children attached)."""
    roots: list[Node] = []
    stack: list[tuple[int, Node]] = []
    for line in readme.splitlines():
        m = LINK.match(line)
        if not m:
            continue
        indent = len(m.group(1).expandtabs(4))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        node = Node(unescape(m.group(2)), m.group(3), tuple(n.title for _, n in stack))
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((indent, node))
    return roots


def support_of(text: str) -> str:
    """"yes", "no" or "none" (no support section) for 910B/A3."""
    m = SUPPORT_HEADING.search(text)
    if not m:
        return "none"
    for line in m.group(1).splitlines():
        if TARGET_LINE.search(line) and SUPPORTED.search(line):
            return "yes"
    return "no"


def family_of(ancestors: tuple[str, ...]) -> str:
    """The family path of a page under ``ancestors`` (root first)."""
    parts = list(ancestors)
    if parts and parts[0] == "SIMD API":
        parts = parts[1:]
    depth = 3 if len(parts) > 1 and parts[1] == "Memory矢量计算" else 2
    return "/".join(parts[:depth]) or "(root)"


def label_of(family: str) -> str:
    return "/".join(LABELS.get(p, p) for p in family.split("/"))


def out_of_scope_reason(ancestors: tuple[str, ...]) -> str:
    path = "/".join(ancestors)
    for prefix, _label, reason in OUT_OF_SCOPE:
        if path == prefix or path.startswith(prefix + "/"):
            return reason
    return ""


def is_api_title(title: str, ancestors: tuple[str, ...]) -> bool:
    return not NOT_API.search(title) and not any(NOT_API_GROUP.search(a) for a in ancestors)


def _walk(nodes: list[Node]):
    for n in nodes:
        yield n
        yield from _walk(n.children)


_CLASS_BODY = re.compile(r"\bclass\s+(\w+)\s*\{(.*?)\n\s*\};", re.S)
_MEMBER = re.compile(r"(\w+)\s*\(")


def class_members_verdict(text: str, group: Node, own: dict[int, str]) -> str:
    """A page without a support section that declares a class whose members have pages of their own in the
    same group (``Mutex`` and its ``Lock`` / ``Unlock`` pages) is documented where they are: "yes" or "no"
    from those pages, "none" when the page declares no such class."""
    verdicts: set[str] = set()
    for m in _CLASS_BODY.finditer(text):
        members = {name for name in _MEMBER.findall(m.group(2)) if name != m.group(1)}
        verdicts |= {own[id(c)] for c in group.children if not c.children and c.title in members}
    verdicts &= {"yes", "no"}
    if not verdicts:
        return "none"
    return "yes" if "yes" in verdicts else "no"


def load_pages(docs: Path) -> list[ApiPage]:
    """Every API page of the tree with its 910B/A3 support decided (``support`` "no" pages included)."""
    readme = docs / "README.md"
    if not readme.is_file():
        raise DocsError(f"{docs} has no README.md")
    roots = parse_tree(readme.read_text(encoding="utf-8"))
    if not roots:
        raise DocsError(f"{readme} has no [Title](page.md) tree")
    texts: dict[str, str] = {}
    own: dict[int, str] = {}            # id(leaf) -> yes/no/none
    for n in _walk(roots):
        if not n.children:
            p = docs / n.path
            texts[n.path] = p.read_text(encoding="utf-8") if p.is_file() else ""
            own[id(n)] = support_of(texts[n.path]) if texts[n.path] else "missing"

    def group_verdict(group: Node) -> str:
        """"yes"/"no" when some leaf below ``group`` has a support section, else "none"."""
        verdicts = {own[id(x)] for x in _walk(group.children) if not x.children}
        if "yes" in verdicts:
            return "yes"
        return "no" if "no" in verdicts else "none"

    pages: list[ApiPage] = []

    def visit(node: Node, chain: list[Node]) -> None:
        if node.children:
            for c in node.children:
                visit(c, [*chain, node])
            return
        if own[id(node)] == "missing" or not is_api_title(node.title, node.ancestors):
            return
        support = own[id(node)]
        if support == "none" and chain:
            support = class_members_verdict(texts[node.path], chain[-1], own)
        if support == "none":
            support = "no"
            for group in reversed(chain):
                v = group_verdict(group)
                if v != "none":
                    support = "inherited" if v == "yes" else "no"
                    break
        pages.append(ApiPage(node.title, node.path, node.ancestors, family_of(node.ancestors), support,
                             out_of_scope_reason(node.ancestors)))

    for r in roots:
        visit(r, [])
    return pages


def page_text(docs: Path, page: ApiPage) -> str:
    p = docs / page.path
    return p.read_text(encoding="utf-8") if p.is_file() else ""

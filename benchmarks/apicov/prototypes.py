"""The documented overloads of an API page, parsed from its prototype section.

A page's prototypes are the code blocks of its "函数原型" (or "原型定义", "定义原型", "结构体具体定义",
"成员函数") sections; a page without such a section (data-structure pages) contributes the code blocks
outside its example sections. Product-specific passages the page marks for other chips only
(``<!-- npu="950" idN --> ... <!-- end idN -->``, ``<cann-filter npu-type="...">``) are dropped first.

Each declaration becomes an :class:`Overload`: a function (free, or a member of the class the page's
group documents), a constructor, an operator, a macro (``#define``, or an upper-case ``NAME(args)``
written without a return type), a type (``struct``/``class``/``enum``/``using``), a data member of a
documented struct, an enumerator, or a named constant. The parser is a small tokenizer plus a
declaration scanner: enough for the reference's prototypes, not a C++ front end; what it cannot read
as a declaration (expressions such as ``dst = src0 + src1;``) it skips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TARGET_NPUS = ("910b", "a3")
PROTO_SECTIONS = re.compile(r"^(函数原型|原型定义|定义原型|结构体具体定义|Public成员函数|成员函数|接口原型)")
EXAMPLE_SECTIONS = re.compile(r"示例|样例|参考")
_NPU_REGION = re.compile(r"<!--\s*npu=\"([^\"]*)\"\s*(\w+)\s*-->(.*?)<!--\s*end\s+\2\s*-->", re.S)
_CANN_FILTER = re.compile(r"<cann-filter\s+npu-type=\"([^\"]*)\"\s*>(.*?)</cann-filter>", re.S)
_FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", re.S | re.M)
_HEADING = re.compile(r"^##\s+(.*?)\s*(?:<a .*)?$", re.M)

# Function-like and plain annotations of the device dialect that are not part of a signature.
_ANNOTATIONS = re.compile(
    r"__inout_pipe__\s*\(\s*\w+\s*\)|__attribute__\s*\(\(.*?\)\)|__launch_bounds__\s*\([^)]*\)|"
    r"\[\[[^\]]*\]\]|\balignas\s*\([^)]*\)|extern\s+\"C\"")
_DROP_WORDS = {
    "__aicore__", "__global__", "__host__", "__device__", "__forceinline__", "inline", "static", "constexpr",
    "explicit", "virtual", "friend", "extern", "__sync_alias__", "__sync_noalias__", "__simd_vf__",
    "__simt_vf__", "__simd_callee__", "__simt_callee__", "__no_simd_vf_fusion__", "CATLASS_DEVICE",
    "CATLASS_HOST_DEVICE", "__cube__", "__vector__", "ASCENDC_HOST_AICORE", "__inline__",
}
_TYPE_KEYWORDS = {
    "const", "volatile", "unsigned", "signed", "int", "long", "short", "char", "float", "double", "bool", "void",
    "auto", "struct", "class", "typename", "enum", "__gm__", "__ubuf__", "__cbuf__", "__ca__", "__cb__", "__cc__",
    "__fbuf__", "__ssbuf__",
}
_TOKEN = re.compile(r"\s*(::|->|\.\.\.|&&|\|\||<=|>=|==|!=|<<=|>>=|[A-Za-z_~][A-Za-z_0-9]*|0[xX][0-9a-fA-F]+[uUlL]*|"
                    r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[fFuUlL]*|\"(?:\\.|[^\"])*\"|'(?:\\.|[^'])*'|\S)")
_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*$")


@dataclass(frozen=True)
class TParam:
    kind: str              # type | value | template
    name: str
    type: str = ""         # the value parameter's type
    default: str = ""
    pack: bool = False


@dataclass(frozen=True)
class Param:
    type: str
    name: str = ""
    default: str = ""


@dataclass(frozen=True)
class Overload:
    """One documented declaration of an API page."""

    kind: str              # function | constructor | operator | macro | type | field | enumerator | constant
    name: str
    owner: str = ""        # enclosing class for constructors, fields, enumerators (enum name), members in a body
    template: tuple[TParam, ...] = ()
    params: tuple[Param, ...] = ()
    const: bool = False    # a const member function
    has_params: bool = False   # a macro written with a parameter list
    text: str = ""         # the declaration as documented (one line)
    type_kind: str = ""    # struct | class | enum | alias (types)

    @property
    def label(self) -> str:
        return self.text or self.name


@dataclass
class PageProtos:
    overloads: list[Overload] = field(default_factory=list)
    blocks: int = 0        # code blocks read


def keep_target_regions(text: str) -> str:
    """``text`` without the passages marked for other chips only."""
    def region(m: re.Match) -> str:
        npus = {n.strip().lower() for n in m.group(1).split(",")}
        return m.group(3) if npus & set(TARGET_NPUS) else ""

    def cann(m: re.Match) -> str:
        npus = {n.strip().lower() for n in m.group(1).split(",")}
        return m.group(2) if npus & set(TARGET_NPUS) else ""

    prev = None
    while prev != text:
        prev = text
        text = _NPU_REGION.sub(region, text)
        text = _CANN_FILTER.sub(cann, text)
    return text


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of each ``## heading`` section; the text before the first is ("", ...)."""
    out: list[tuple[str, str]] = []
    marks = list(_HEADING.finditer(text))
    out.append(("", text[: marks[0].start()] if marks else text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((m.group(1).strip(), text[m.end(): end]))
    return out


def code_blocks(text: str) -> list[str]:
    """The prototype code blocks of a page (see the module docstring)."""
    text = keep_target_regions(text)
    secs = sections(text)
    chosen = [body for head, body in secs if PROTO_SECTIONS.match(head)]
    if not chosen:
        chosen = [body for head, body in secs if not EXAMPLE_SECTIONS.search(head)
                  and not head.startswith("产品支持")]
    blocks: list[str] = []
    for body in chosen:
        blocks.extend(m.group(1) for m in _FENCE.finditer(body))
    return blocks


def strip_comments(code: str) -> str:
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    return re.sub(r"//[^\n]*", "", code)


def tokenize(code: str) -> list[str]:
    return [m.group(1) for m in _TOKEN.finditer(code) if m.group(1)]


def _close(tokens: list[str], i: int) -> int:
    """Index just past the bracket group opening at ``tokens[i]`` (angle brackets count only as a group
    when opened by the caller; inside, parentheses shield them)."""
    opener = tokens[i]
    closer = _OPEN[opener]
    depth = 0
    j = i
    while j < len(tokens):
        t = tokens[j]
        if opener == "<":
            if t in ("(", "[", "{"):
                j = _close(tokens, j)
                continue
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
            elif t == ">>":
                depth -= 2
            elif t == ";":
                return j
        else:
            if t == opener:
                depth += 1
            elif t == closer:
                depth -= 1
        j += 1
        if depth <= 0:
            return j
    return j


def join(tokens: list[str]) -> str:
    out = ""
    for t in tokens:
        if out and (_IDENT.match(t[0]) or t[0].isdigit()) and (out[-1].isalnum() or out[-1] == "_"):
            out += " "
        elif out and t in ("const", "volatile") and out[-1] in "&*>":
            out += " "
        out += t
    return out


def split_top(tokens: list[str], sep: str = ",") -> list[list[str]]:
    parts: list[list[str]] = [[]]
    depth_angle = 0
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("(", "[", "{"):
            j = _close(tokens, i)
            parts[-1].extend(tokens[i:j])
            i = j
            continue
        if t == "<":
            depth_angle += 1
        elif t == ">" and depth_angle:
            depth_angle -= 1
        if t == sep and depth_angle == 0:
            parts.append([])
        else:
            parts[-1].append(t)
        i += 1
    return [p for p in parts if p]


def _split_default(tokens: list[str]) -> tuple[list[str], str]:
    depth = 0
    for k, t in enumerate(tokens):
        if t in ("(", "[", "{", "<"):
            depth += 1
        elif t in (")", "]", "}", ">"):
            depth -= 1
        elif t == "=" and depth == 0:
            return tokens[:k], join(tokens[k + 1:])
    return tokens, ""


def parse_tparams(tokens: list[str]) -> tuple[TParam, ...]:
    out: list[TParam] = []
    for part in split_top(tokens):
        decl, default = _split_default(part)
        if not decl:
            continue
        pack = "..." in decl
        decl = [t for t in decl if t != "..."]
        if decl[0] == "template":
            name = decl[-1] if _IDENT.match(decl[-1]) and decl[-1] not in ("class", "typename") else ""
            out.append(TParam("template", name, join(decl[:-1] if name else decl), default, pack))
        elif decl[0] in ("typename", "class") and len(decl) <= 2:
            out.append(TParam("type", decl[1] if len(decl) == 2 else "", "", default, pack))
        else:
            named = len(decl) >= 2 and _IDENT.match(decl[-1]) and decl[-1] not in _TYPE_KEYWORDS \
                and decl[-2] != "::"
            name = decl[-1] if named else ""
            out.append(TParam("value", name, join(decl[:-1] if named else decl), default, pack))
    return tuple(out)


def parse_params(tokens: list[str]) -> tuple[Param, ...]:
    if tokens in ([], ["void"]):
        return ()
    out: list[Param] = []
    for part in split_top(tokens):
        decl, default = _split_default(part)
        if decl == ["..."]:
            out.append(Param("...", "", ""))
            continue
        # a reference to an array: T (&name)[N] -> T(&)[N]
        ref = _array_reference(decl)
        if ref is not None:
            out.append(Param(*ref, default))
            continue
        # trailing array declarators: T name[] / T name[N] -> T*
        array = False
        while decl and decl[-1] == "]":
            k = len(decl) - 1
            while k >= 0 and decl[k] != "[":
                k -= 1
            decl = decl[:k]
            array = True
        named = len(decl) >= 2 and _IDENT.match(decl[-1]) and decl[-1] not in _TYPE_KEYWORDS \
            and decl[-2] != "::" and decl[-2] not in ("struct", "class", "enum", "typename")
        name = decl[-1] if named else ""
        type_tokens = decl[:-1] if named else decl
        type_text = join(type_tokens) + ("*" if array else "")
        out.append(Param(type_text, name, default))
    return tuple(out)


def _array_reference(decl: list[str]) -> tuple[str, str] | None:
    """``T (&name)[N]`` as the type ``T(&)[N]`` and the name, or None for any other declarator."""
    if len(decl) < 7 or decl[-1] != "]" or "[" not in decl:
        return None
    k = len(decl) - 1 - decl[::-1].index("[")
    head = decl[:k]
    if head[-4:-2] != ["(", "&"] or head[-1] != ")" or not _IDENT.match(head[-2]):
        return None
    return f"{join(head[:-4])}(&)[{join(decl[k + 1:-1])}]", head[-2]


# owner hint of a constructor page whose group is not one class ("Matmul Tiling类构造函数"): a declaration
# without a return type outside a class body constructs the class it names.
ANY_CLASS = "*"


@dataclass
class _Ctx:
    owner: str = ""
    owner_kind: str = ""
    owner_hint: str = ""


def _clean(code: str) -> str:
    code = strip_comments(code)
    code = _ANNOTATIONS.sub(" ", code)
    return code


def _macro_lines(code: str) -> tuple[list[Overload], str]:
    macros: list[Overload] = []
    kept: list[str] = []
    lines = code.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*#?\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?", line)   # some pages drop the '#'
        if m:
            while line.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                line = lines[i]
            args = tuple(Param("", a.strip()) for a in (m.group(3) or "").split(",") if a.strip())
            macros.append(Overload("macro", m.group(1), params=args, has_params=m.group(2) is not None,
                                   text=m.group(0).strip()))
        elif re.match(r"\s*#", line):
            pass
        else:
            kept.append(line)
        i += 1
    return macros, "\n".join(kept)


_DECL_END = re.compile(r"(\)|\bconst|\bnoexcept|\boverride|=\s*(?:default|delete|0))\s*$")
_CONTINUES = re.compile(r"^\s*(\{|:|->|const\b|noexcept\b|override\b|=|,|\)|&)")


def terminate_lines(code: str) -> str:
    """``code`` with a ``;`` after each line that ends a declaration written without one (the reference
    often lists several prototypes in one block, one a line)."""
    lines = code.split("\n")
    out: list[str] = []
    depth = 0
    for k, line in enumerate(lines):
        depth += sum(line.count(c) for c in "([") - sum(line.count(c) for c in ")]")
        nxt = next((x for x in lines[k + 1:] if x.strip()), "")
        if depth == 0 and _DECL_END.search(line) and not _CONTINUES.match(nxt):
            line += ";"
        out.append(line)
    return "\n".join(out)


def parse_block(code: str, owner: str = "") -> list[Overload]:
    """The declarations of one code block; ``owner`` is the class the page's group documents, if any
    (a declaration without a return type named after it is its constructor)."""
    macros, code = _macro_lines(_clean(code))
    tokens = [t for t in tokenize(terminate_lines(code)) if t not in _DROP_WORDS]
    out = list(macros)
    _scan(tokens, _Ctx(owner_hint=owner), out)
    return out


def _scan(tokens: list[str], ctx: _Ctx, out: list[Overload]) -> None:
    i = 0
    n = len(tokens)
    while i < n:
        t = tokens[i]
        if t in (";", "}", "public", "private", "protected") or (t == ":" and i > 0 and tokens[i - 1] in (
                "public", "private", "protected")):
            i += 1
            continue
        if t == "namespace":
            j = i + 1
            while j < n and tokens[j] != "{":
                j += 1
            end = _close(tokens, j) if j < n else n
            _scan(tokens[j + 1: end - 1], ctx, out)
            i = end
            continue
        # one statement: template heads, then up to ';' or a body
        template: tuple[TParam, ...] = ()
        while i < n and tokens[i] == "template" and i + 1 < n and tokens[i + 1] == "<":
            end = _close(tokens, i + 1)
            template = parse_tparams(tokens[i + 2: end - 1])
            i = end
        if i >= n:
            break
        j = i
        body: tuple[int, int] | None = None
        while j < n and tokens[j] != ";":
            if tokens[j] == "{":
                end = _close(tokens, j)
                body = (j, end)
                j = end
                break
            if tokens[j] in ("(", "["):
                j = _close(tokens, j)
                continue
            j += 1
        stmt = tokens[i: body[0] if body else j]
        _statement(stmt, template, tokens[body[0] + 1: body[1] - 1] if body else None, ctx, out)
        i = j + 1 if not body else j
        if body and i < n and tokens[i] == ";":
            i += 1


def _statement(stmt: list[str], template: tuple[TParam, ...], body: list[str] | None, ctx: _Ctx,
               out: list[Overload]) -> None:
    if not stmt or "#" in stmt:
        return                              # macro bodies (token pasting) are not declarations
    text = join(stmt)
    if stmt[0] in ("struct", "class", "union") and len(stmt) >= 2 and _IDENT.match(stmt[1]) and "(" not in stmt:
        name = stmt[1]
        out.append(Overload("type", name, ctx.owner, template, text=text, type_kind=stmt[0]))
        if body is not None:
            _scan(body, _Ctx(name, stmt[0], ctx.owner_hint), out)
        return
    if stmt[0] == "enum":
        k = 1
        if k < len(stmt) and stmt[k] in ("class", "struct"):
            k += 1
        if k < len(stmt) and _IDENT.match(stmt[k]):
            name = stmt[k]
            out.append(Overload("type", name, ctx.owner, template, text=text, type_kind="enum"))
            for part in split_top(body or []):
                decl, _ = _split_default(part)
                if decl and _IDENT.match(decl[0]):
                    out.append(Overload("enumerator", decl[0], name, text=f"{name}::{decl[0]}"))
        return
    if stmt[0] == "using" and len(stmt) >= 3 and stmt[2] == "=":
        out.append(Overload("type", stmt[1], ctx.owner, template, text=text, type_kind="alias"))
        return
    if stmt[0] == "typedef":
        if _IDENT.match(stmt[-1]):
            out.append(Overload("type", stmt[-1], ctx.owner, text=text, type_kind="alias"))
        return
    if stmt[0] in ("return", "if", "for", "while", "using", "else", "do", "case", "goto", "throw"):
        return
    _function_or_variable(stmt, template, ctx, out, text, body is not None)


def _function_or_variable(stmt: list[str], template: tuple[TParam, ...], ctx: _Ctx, out: list[Overload],
                          text: str, has_body: bool) -> None:
    if len(stmt) > 3 and _IDENT.match(stmt[0]) and stmt[1] == "<":
        end = _close(stmt, 1)
        if end < len(stmt) and stmt[end] == "(":            # Name<T>(...): a constructor
            stmt = [stmt[0], *stmt[end:]]
    # the declarator's parameter list: the first top-level '(' after a name (or an operator)
    k = 0
    angle = 0
    paren = -1
    while k < len(stmt):
        t = stmt[k]
        if t == "<":
            angle += 1
        elif t == ">" and angle:
            angle -= 1
        elif t == "(":
            if angle == 0 and k > 0 and (_IDENT.match(stmt[k - 1].lstrip("~")) or "operator" in stmt[max(0, k - 3): k]):
                if stmt[k - 1] not in ("decltype", "sizeof", "alignof", "noexcept"):
                    paren = k
                    break
            k = _close(stmt, k)
            continue
        elif t == "=" and angle == 0 and "operator" not in stmt[max(0, k - 2): k]:   # not operator= / +=
            break
        k += 1
    if paren < 0:
        _variable(stmt, template, ctx, out, text)
        return
    close = _close(stmt, paren)
    # name: identifier before '(' or operator symbol tokens
    n0 = paren - 1
    name = stmt[n0]
    if "operator" in stmt[max(0, paren - 3): paren]:
        op_at = max(idx for idx in range(max(0, paren - 3), paren) if stmt[idx] == "operator")
        name = "operator" + "".join(stmt[op_at + 1: paren])
        if name == "operator" and stmt[paren: paren + 2] == ["(", ")"]:      # operator()
            name = "operator()"
            close = _close(stmt, paren + 2)
            paren = paren + 2
        n0 = op_at
    owner = ctx.owner
    if n0 >= 2 and stmt[n0 - 1] == "::" and _IDENT.match(stmt[n0 - 2]):
        owner = stmt[n0 - 2]
        n0 -= 2
    elif n0 >= 4 and stmt[n0 - 1] == "::" and stmt[n0 - 2] == ">":
        # an out-of-class member definition `Owner<hard>::name(...)`: the template parameters the owner's
        # arguments name are the class's, not the member's
        open_at = _open_angle(stmt, n0 - 2)
        if open_at > 0 and _IDENT.match(stmt[open_at - 1]):
            class_args = set(stmt[open_at + 1: n0 - 2])
            owner = stmt[open_at - 1]
            template = tuple(tp for tp in template if tp.name not in class_args)
            n0 = open_at - 1
    ret = stmt[:n0]
    while ret and ret[-1] == "::":
        ret = ret[:-2]
    params = parse_params(stmt[paren + 1: close - 1])
    tail = stmt[close:]
    const = bool(tail) and tail[0] == "const"
    if tail[-2:] == ["=", "delete"]:
        return                              # documented as deleted: not an API
    base_owner = owner.split("<")[0]
    if name.startswith("~"):
        return                              # every class has a destructor: not counted
    if name == base_owner or (not ret and owner and name == owner):
        out.append(Overload("constructor", name, name, template, params, text=text))
        return
    if name.startswith("operator"):
        out.append(Overload("operator", name, owner, template, params, const, text=text))
        return
    if not ret:
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
            out.append(Overload("macro", name, params=params, has_params=True, text=text))
        elif name in (ctx.owner_hint, ctx.owner) or (ctx.owner_hint == ANY_CLASS and not ctx.owner):
            out.append(Overload("constructor", name, name, template, params, text=text))
        elif not template and params and all(not p.name and _IDENT.match(p.type) for p in params):
            # a function-like macro written as its use, arguments untyped: assert(expr)
            out.append(Overload("macro", name, params=params, has_params=True, text=text))
        return
    out.append(Overload("function", name, owner, template, params, const, text=text))


def _open_angle(stmt: list[str], close: int) -> int:
    """The index of the '<' that the '>' at ``close`` closes (-1 if unbalanced)."""
    depth = 0
    for k in range(close, -1, -1):
        if stmt[k] == ">":
            depth += 1
        elif stmt[k] == "<":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _variable(stmt: list[str], template: tuple[TParam, ...], ctx: _Ctx, out: list[Overload], text: str) -> None:
    if len(stmt) == 1 and re.fullmatch(r"[A-Z][A-Z0-9_]*", stmt[0]):
        out.append(Overload("macro", stmt[0], text=text))
        return
    decl, _default = _split_default(stmt)
    while decl and decl[-1] == "]":
        k = len(decl) - 1
        while k >= 0 and decl[k] != "[":
            k -= 1
        decl = decl[:k]
    if len(decl) >= 2 and _IDENT.match(decl[-1]) and decl[-1] not in _TYPE_KEYWORDS:
        kind = "field" if ctx.owner and ctx.owner_kind in ("struct", "class", "union") else "constant"
        out.append(Overload(kind, decl[-1], ctx.owner, template, text=text))


def page_overloads(text: str, owner: str = "") -> PageProtos:
    """The documented overloads of a page (deduplicated, in page order); ``owner``: see :func:`parse_block`."""
    blocks = code_blocks(text)
    seen: set[str] = set()
    result = PageProtos(blocks=len(blocks))
    for block in blocks:
        for ov in parse_block(block, owner):
            key = f"{ov.kind}|{ov.owner}|{ov.name}|{ov.template}|{ov.params}|{ov.const}"
            if key not in seen:
                seen.add(key)
                result.overloads.append(ov)
    return result

"""The reference's own call examples compiled against the simulator's headers: a generalisation measure.

Every in-scope API page (what ``api_coverage`` counts: documented for 910B/A3, family in scope) contributes
the fenced code blocks of its "调用示例" / "使用示例" sections, passages marked for other chips only
(``<!-- npu="310p" id1 --> ... <!-- end id1 -->``) dropped first (:func:`prototypes.keep_target_regions`).

Rules, in order:

1. *Not C++* (skipped, counted by reason): a fence labelled with another language (``shell``, ``json``,
   ...); a block with neither ``;`` nor ``{``; one with non-ASCII text outside comments and string literals
   (output dumps, "输入数据 ... 输出数据"); one whose first line is a shell command; a JSON object.
2. *Side*: the page's (:func:`coverage.page_side`; "both" reads as kernel), unless the block's own words
   say otherwise: kernel words only (``__aicore__``, ``LocalTensor``, ``GM_ADDR``, ...) -> kernel, host
   words only (``gert::``, ``optiling``, ``TilingContext``, ...) -> host.
3. *Shape* (:mod:`example_shape`): the block's top-level items are definitions (class, struct, union, enum,
   template, namespace, typedef, function definitions, namespace-scope macros such as
   ``BEGIN_TILING_DATA_DEF``, preprocessor lines) or statements. Definitions compile at namespace scope;
   statements inside ``__aicore__ inline auto npukb_example()`` (kernel) or ``inline auto npukb_example()``
   (host): ``auto``, so that a host example's ``return ge::GRAPH_SUCCESS;`` compiles; host statements that
   use ``this->`` (OpDef registration: ``this->Input("x")...``) in the constructor of a class derived from
   ``ops::OpDef``, where the real files have them. Each block lives in a
   namespace of its own (``using namespace AscendC;`` on the kernel side, as kernel files have it;
   ``using namespace ops;`` on the host side, where registration code lives in ``namespace ops``), except
   a block that opens a namespace itself (``namespace optiling { ... }``: the real one), which compiles
   unwrapped in a translation unit of its own;
   ``extern "C"`` is dropped (two examples' kernels of one name would clash), and so is a line of only
   ``...`` (the example's "code left out"); ``#include`` lines are
   hoisted before the namespace, kept when the header is the simulator's or the compiler's, else dropped
   (the example's own header) and listed; macros a block defines are ``#undef``-ed after it.
4. *Compile*: the prelude and flags of the declaration probes (:mod:`probes`), many blocks per g++ call,
   each error attributed to its block's lines; a call whose errors cannot all be attributed is split.
5. *Classify*: ``compiles`` (no error); ``fragment``: every error says a name was not declared
   (:data:`UNDECLARED`) and each such name is the example's own, free (:mod:`known_names`: no API title
   or prototype of the reference, no header of ours defines it), or is a parse consequence of one
   (:data:`CASCADE` in a statement that names a free name or a variable declared where one was
   reported (:data:`DECLARED`), :data:`NON_CLASS` for a member of such a variable); ``fails``: anything
   else, with its first such error (``cause``).
"""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import coverage, doc_tree, example_shape, known_names, probes, prototypes
from .fixtures import HOST_HEADERS, HOST_NAMESPACES, KERNEL_HEADERS, KERNEL_NAMESPACES

EXAMPLE_HEADING = re.compile(r"^(调用示例|使用示例)")
_FENCE = re.compile(r"^[ \t]*```([^\n]*)\n(.*?)^[ \t]*```", re.S | re.M)
CPP_LABELS = {"", "cpp", "c++", "c", "cc", "cxx", "h", "hpp"}
_SHELL = re.compile(r"^\s*(\$\s|#!|export\s|source\s|bash\s|cd\s|mkdir\s|cmake\b|make\b|python3?\s|pip\s|\./|"
                    r"msprof\b|npu-smi\b)")
_JSON = re.compile(r"^\s*[\[{]\s*\"[^\"]*\"\s*:")
_KERNEL_WORDS = re.compile(r"__aicore__|__global__|__gm__|GM_ADDR|\bLocalTensor\b|\bGlobalTensor\b|\bTPipe\b|"
                           r"\bTQue\b|\bTBuf\b|GET_TILING_DATA|GetBlockIdx")
_HOST_WORDS = re.compile(r"gert::|\boptiling\b|TilingContext|GRAPH_SUCCESS|context->|platform_ascendc|"
                         r"matmul_tiling|BEGIN_TILING_DATA_DEF|TILING_DATA_FIELD_DEF|REGISTER_TILING_DATA_CLASS|"
                         r"\bOpDef\b|this->Input|this->Output|\bOP_ADD\b")
UNDECLARED = re.compile(r"^[‘'`](?P<name>[A-Za-z_]\w*)[’'] (?:was not declared in this scope|has not been declared|"
                        r"does not name a type)")
# what g++ says on a statement that names an undeclared name, or a variable declared in such a statement,
# because of it (`que.AllocTensor<half>()` parses as comparisons when `que` is unknown: "expected
# primary-expression before '>' token"); and about a member of such a variable (its type is an error: int)
# (and a call or initializer whose operand or template argument is one: g++ prints an operand as
# "<expression error>", reports the braces "<brace-enclosed initializer list>" it could not convert, or
# finds no overload for `F<T>()` with `T` the undeclared name, or, for `F<T, N>()` with another overload of
# one template parameter, says that one takes fewer template arguments)
CASCADE = re.compile(r"^(?:expected primary-expression before|template argument \d+ is invalid|"
                     r"expected [‘'][;,)>][’'] before|.*<(?:expression|declaration) error>|"
                     r"no matching function for call to |wrong number of template arguments|"
                     r"could not convert [‘']\{.*[’'] from [‘']<brace-enclosed initializer list>[’'])")
DECLARED = re.compile(r"(?<=[\w>])\s+[*&]*(\w+)\s*(?=[;=({\[])")
NON_CLASS = re.compile(r"^(?:request for member [‘'][^’']*[’'] in [‘'](?P<var>\w+)[’'], "
                       r"which is of non-class type [‘']int[’']|"
                       r"scalar object [‘'](?P<init>\w+)[’'] requires one element in initializer)")


@dataclass
class Block:
    page: doc_tree.ApiPage
    index: int                     # the page's k-th example code block (C++ or not)
    code: str
    side: str = "kernel"           # kernel | host
    status: str = ""               # compiles | fragment | fails
    errors: list[str] = field(default_factory=list)
    free_names: list[str] = field(default_factory=list)
    dropped_includes: list[str] = field(default_factory=list)
    cause: str = ""                # a failing block's first error that is not a free name's

    @property
    def where(self) -> str:
        return f"{self.page.path}#{self.index}"


@dataclass
class Skip:
    page: doc_tree.ApiPage
    index: int
    reason: str


@dataclass
class ExampleRun:
    blocks: list[Block]
    skipped: list[Skip]
    compiles: int = 0              # g++ calls
    seconds: float = 0.0


def example_fences(text: str) -> list[tuple[str, str]]:
    """(fence label, dedented code) of each fenced block in the page's example sections, for 910B/A3."""
    out: list[tuple[str, str]] = []
    for head, body in prototypes.sections(prototypes.keep_target_regions(text)):
        if EXAMPLE_HEADING.match(head):
            for m in _FENCE.finditer(body):
                out.append((m.group(1).strip().lower(), _dedent(m.group(2))))
    return out


def _dedent(code: str) -> str:
    lines = code.splitlines()
    indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    cut = min(indents, default=0)
    return "\n".join(ln[cut:] for ln in lines) + "\n"


def not_cpp(label: str, code: str) -> str:
    """Why the block is not C++ to compile ("" when it is)."""
    if label not in CPP_LABELS:
        return f"labelled {label}"
    bare = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', prototypes.strip_comments(code))
    bare = example_shape.ELISION.sub("", bare)
    if ";" not in bare and "{" not in bare:
        return "no ; nor {"
    if re.search(r"[^\x00-\x7f]", bare):
        return "text outside code (non-ASCII outside comments and strings)"
    first = next((ln for ln in bare.splitlines() if ln.strip()), "")
    if _SHELL.match(first):
        return "shell commands"
    if _JSON.match(bare):
        return "JSON"
    return ""


def block_side(page_side: str, code: str) -> str:
    kernel, host = bool(_KERNEL_WORDS.search(code)), bool(_HOST_WORDS.search(code))
    if kernel != host:
        return "kernel" if kernel else "host"
    return "host" if page_side == "host" else "kernel"


def collect(docs: Path) -> tuple[list[Block], list[Skip], list[doc_tree.ApiPage], dict[str, str]]:
    """The example blocks of the in-scope pages, the blocks skipped, all API pages, the in-scope texts."""
    pages = doc_tree.load_pages(docs)
    in_scope = [p for p in pages if p.support != "no" and not p.out_of_scope]
    texts = {p.path: doc_tree.page_text(docs, p) for p in in_scope}
    blocks: list[Block] = []
    skipped: list[Skip] = []
    for p in in_scope:
        side = coverage.page_side(p, texts[p.path])
        for k, (label, code) in enumerate(example_fences(texts[p.path])):
            reason = not_cpp(label, code)
            if reason:
                skipped.append(Skip(p, k, reason))
            else:
                blocks.append(Block(p, k, code, block_side(side, code)))
    return blocks, skipped, pages, texts


def classify(block: Block, errors: list[tuple[int, str]], known: set[str], code: str = "") -> None:
    """Set the block's status from its errors, (line in ``code``, the wrapped block, message) each (the module
    docstring, rule 5); a failing block's ``cause`` is its first error that is neither a free name's nor a
    consequence of one."""
    block.errors = [msg for _, msg in errors]
    lines = code.splitlines()
    free: list[str] = []
    tainted: set[str] = set()                   # variables declared in a statement that names a free name

    ends = [bool(re.search(r"[;{}]\s*(?://.*)?$", ln)) for ln in lines]

    def statement(line: int) -> str:
        """The statement around ``line``: from the line after one that ends in ``;``, ``{`` or ``}`` to the
        next such line."""
        if not 0 < line <= len(lines):
            return ""
        a = line - 1
        while a > 0 and not ends[a - 1]:
            a -= 1
        b = line - 1
        while b < len(lines) - 1 and not ends[b]:
            b += 1
        return "\n".join(lines[a:b + 1])

    def words(line: int) -> set[str]:
        return set(re.findall(r"\w+", statement(line)))

    block.cause = ""
    # g++ reports an undeclared name once: a later statement that declares a variable with it (`Pad<T> p;`)
    # has no error of its own, but the variable is an int from there on
    undeclared = {name for _, msg in errors if (name := _free(msg, known))}
    for n in range(1, len(lines) + 1):
        if undeclared & set(re.findall(r"\w+", lines[n - 1])):
            tainted.update(DECLARED.findall(statement(n)))
    for line, msg in errors:
        name = _free(msg, known)
        if name:
            free.append(name)
            tainted.update(DECLARED.findall(statement(line)))
            continue
        m = NON_CLASS.match(msg)
        if CASCADE.match(msg) and words(line) & (set(free) | tainted):
            tainted.update(DECLARED.findall(statement(line)))    # declared with a type in error: int
            continue
        if m and (m.group("var") or m.group("init")) in tainted:
            continue
        block.cause = msg
        break
    if not errors:
        block.status, block.free_names = "compiles", []
    elif block.cause:
        block.status, block.free_names = "fails", []
    else:
        block.status, block.free_names = "fragment", list(dict.fromkeys(free))


def _free(error: str, known: set[str]) -> str:
    """The name the error says was not declared, when it is the example's own ("" otherwise)."""
    m = UNDECLARED.match(error)
    return m.group("name") if m and m.group("name") not in known else ""


def _system_include_dirs(compiler: str) -> list[Path]:
    """Where the compiler looks for ``#include <...>`` (from ``-v``), for the blocks' includes."""
    try:
        out = subprocess.run([compiler, "-xc++", "-E", "-v", "-"], input="", capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    lines = out.stderr.splitlines()
    try:
        start = lines.index("#include <...> search starts here:") + 1
        end = lines.index("End of search list.")
    except ValueError:
        return []
    return [Path(ln.strip()) for ln in lines[start:end]]


BATCH = 40


def _run_batch(tc: probes.Toolchain, side: str, items: list[tuple[Block, str]], known: set[str]) -> None:
    """Compile ``items`` (block, wrapped code) in one g++ call, split in halves while errors cannot be
    placed (or a fatal error stops g++), and classify each block."""
    errors, clean, stderr = probes.compile_snippets(tc, side, [code for _, code in items])
    if (not clean or "fatal error" in stderr) and len(items) > 1:
        half = len(items) // 2
        _run_batch(tc, side, items[:half], known)
        _run_batch(tc, side, items[half:], known)
        return
    for k, (block, code) in enumerate(items):
        errs = errors.get(k, [])
        if not errs and not clean:         # one block, errors g++ could not place: its first error line
            errs = [(0, next((ln.strip() for ln in stderr.splitlines() if "error" in ln), stderr[:300].strip()))]
        classify(block, errs, known, code)


def measure(docs: Path, include_dir: Path, compiler: str, family: str | None = None,
            on_batch=None) -> ExampleRun:
    """Collect, wrap, compile and classify every example block (of ``family`` only, when given)."""
    if not compiler:
        raise probes.ProbeError("no C++ compiler: install g++")
    blocks, skipped, pages, texts = collect(docs)
    if family:
        blocks = [b for b in blocks if family_matches(b.page, family)]
        skipped = [s for s in skipped if family_matches(s.page, family)]
    known = known_names.documented_names(pages, list(texts.values())) | known_names.header_names(include_dir)
    tc = probes.Toolchain(compiler, include_dir, probes.prelude(KERNEL_HEADERS, KERNEL_NAMESPACES),
                          probes.prelude(HOST_HEADERS, HOST_NAMESPACES))
    include_dirs = [include_dir, *_system_include_dirs(compiler)]
    by_side: dict[str, list[tuple[Block, str]]] = {"kernel": [], "host": []}
    batches: list[tuple[str, list[tuple[Block, str]]]] = []
    for n, b in enumerate(blocks):
        w = example_shape.wrap(b.code, b.side, f"npukb_ex{n}", include_dirs)
        b.dropped_includes = w.dropped
        if w.alone:
            batches.append((b.side, [(b, w.code)]))
        else:
            by_side[b.side].append((b, w.code))
    batches += [(side, items[i:i + BATCH]) for side, items in by_side.items() for i in range(0, len(items), BATCH)]
    done = [0]

    def one(job: tuple[str, list[tuple[Block, str]]]) -> None:
        _run_batch(tc, job[0], job[1], known)
        done[0] += 1
        if on_batch:
            on_batch(done[0], len(batches))

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, batches))
    return ExampleRun(blocks, skipped, tc.compiles, tc.seconds)


def family_matches(page: doc_tree.ApiPage, family: str) -> bool:
    """``family`` names the page's family by its path or English label, or a prefix of either."""
    return page.family.startswith(family) or doc_tree.label_of(page.family).startswith(family)

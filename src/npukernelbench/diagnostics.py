"""Compiler diagnostics: classify a build log into the paper's error taxonomy and trim it for humans.

``classify(log)`` looks at the *first* error of a g++ (or clang) log, the root cause, together with
its notes, and maps it to one of the six classes of the AscendKernelGen error taxonomy (or ``other``):

========================  =====================================================================
class                     typical diagnostics
========================  =====================================================================
api_signature             no matching function / member function, too many or too few
                          arguments, a tensor passed where a scalar is expected (or the other
                          way round), ``X is not a member of AscendC``, wrong number of template
                          arguments, no ``operator`` for the operands, ambiguous overload,
                          undefined reference
dtype_conversion          deduced conflicting types for ``T``, cannot/invalid/narrowing
                          conversion, invalid operands of types, dtype ``static_assert``\\ s
scope_lifetime            not declared in this scope, undeclared identifier, does not name a
                          type, an enumerator/constant that is not a member of its scope,
                          private/protected within this context, redeclaration, crosses
                          initialization
memory_object             an object's class has no member named so (a method called on the
                          wrong kind of object), request for member of non-class type, '->'
                          on a non-pointer, cannot bind reference, lvalue
                          required, read-only object, discards qualifiers, incomplete or
                          abstract type, deleted function, invalid subscript, buffer
                          ``static_assert``\\ s (UB/L1/alignment)
syntax_structure          expected ``;``/``)``/primary-expression, stray characters,
                          unterminated literals, misplaced definitions
macro_preprocessing       ``#error``, missing include file, macro argument count, invalid
                          directives, undefined AscendC macros (``DTYPE_X``, ``GET_TILING_DATA``),
                          an error raised inside the expansion of an AscendC tiling macro
                          (``TILING_KEY_IS(runtime value)``) or a ``static_assert`` whose text
                          starts with the macro's name (``GET_TILING_DATA: ...``)
========================  =====================================================================

Toolchains should word dtype ``static_assert`` messages with the word "dtype" or "type" or name the
element kind ("integer", "unsigned", "floating") (they then count as dtype_conversion), buffer/size ones
with "UB", "buffer", "size" or "align", and macro-misuse ones starting with the macro's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from npukernelbench.result import ErrorCategory

# file:line:col: severity: message   (also file:line: and "<command-line>:")
_HEAD = re.compile(r"^(?P<loc>[^\s:][^:]*?(?::\d+){1,2}): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_BARE = re.compile(r"^(?P<loc>[\w.+-]+): (?P<sev>fatal error|error): (?P<msg>.*)$")   # "cc1plus: error: ..."
_LINKER = re.compile(r"(undefined reference to|multiple definition of)\s+[`'\"](?P<sym>[^`'\"]+)"
                     r"|^\S*\bld(?:\.\w+)?: (?:cannot find|cannot open|.*file not recognized)")
_REQUIRED_HERE = re.compile(r"^[^\s:][^:]*?(?::\d+){1,2}:\s+required from here")
_EXCERPT = re.compile(r"^\s*(\d+\s*)?\|")    # "   12 |   code" and "      |   ^~~"
_NOISE = re.compile(r"(In instantiation of|required from|required by substitution of|In file included from|"
                    r"^\s+from \S+:\d+[,:]|In (member )?function|In constructor|In destructor|In lambda|"
                    r"At global scope|In static member function|in expansion of macro|in definition of macro|"
                    r"recursively required|compilation terminated)")

_MACROS = (r"DTYPE_\w+|GET_TILING_DATA\w*|TILING_KEY_IS|BEGIN_TILING_DATA_DEF|TILING_DATA_FIELD_DEF\w*|"
           r"END_TILING_DATA_DEF|REGISTER_TILING_DATA_CLASS|OP_ADD|GM_ADDR|__aicore__|__global__|__gm__|"
           r"KERNEL_TASK_TYPE\w*|ASCEND_IS_AI[VC]|ORIG_DTYPE_\w+|FORMAT_\w+")
_UNDEFINED_MACRO = re.compile(r"'(" + _MACROS + r")' (was not declared|has not been declared|does not name a type)|"
                              r"(use of undeclared identifier|unknown type name) '(" + _MACROS + r")'")
# Function-like AscendC macros whose misuse surfaces as an error inside their expansion.
_TILING_MACROS = r"TILING_KEY_IS|GET_TILING_DATA\w*|TILING_DATA_FIELD_DEF\w*|BEGIN_TILING_DATA_DEF|" \
                 r"END_TILING_DATA_DEF|REGISTER_TILING_DATA_CLASS|KERNEL_TASK_TYPE\w*"
_IN_MACRO = re.compile(r"in expansion of macro '(" + _TILING_MACROS + r")'")
_MACRO_ASSERT = re.compile(r"static assertion failed: (" + _TILING_MACROS + r")\b")
_DTYPE_WORDS = re.compile(r"\b(half|float|double|bfloat16_t|bool|(u?int(8|16|32|64)_t)|(unsigned |signed )?"
                          r"(char|short|int|long)( int)?( long)?( int)?|float16_t|__fp16|_Float16|__bf16|"
                          r"bfloat16|unsigned)\b")


@dataclass(frozen=True)
class Diagnostic:
    """One compiler error with its notes and source excerpt lines."""

    location: str
    severity: str
    message: str
    notes: tuple[str, ...] = ()
    lines: tuple[str, ...] = field(default=(), repr=False)   # raw lines, for trimming
    origin: str = ""      # "file:line:col:   required from here" of an error inside an instantiated template


@dataclass(frozen=True)
class _Rule:
    category: ErrorCategory
    pattern: re.Pattern[str]


def _r(category: ErrorCategory, *patterns: str) -> tuple[_Rule, ...]:
    return tuple(_Rule(category, re.compile(p, re.IGNORECASE)) for p in patterns)


_C = ErrorCategory
# Ordered: the first matching rule wins. Specific patterns come before broad ones ("expected ...").
RULES: tuple[_Rule, ...] = (
    *_r(_C.MACRO_PREPROCESSING,
        r"#error", r"no such file or directory", r"file not found", r"macro \"?\S+\"? (passed|requires) \d+",
        r"unterminated argument list invoking macro", r"#include expects", r"#include nested",
        r"invalid preprocessing directive", r"#(if|ifdef|ifndef|endif|else|elif)\b", r"unterminated #",
        r"missing binary operator before token", r"macro names must be identifiers",
        r"pasting .* does not give a valid preprocessing token", r"'#' is not followed by a macro parameter",
        r"__VA_ARGS__", r"'(" + _MACROS + r")' (was not declared|has not been declared|does not name a type)",
        r"(use of undeclared identifier|unknown type name) '(" + _MACROS + r")'"),
    *_r(_C.DTYPE_CONVERSION,
        r"deduced conflicting types", r"conflicting types for parameter", r"cannot convert", r"invalid conversion",
        r"narrowing conversion", r"could not convert", r"invalid (static_|reinterpret_|const_)?cast",
        r"invalid '(static|reinterpret|const)_cast'", r"conversion from .* to .* (is ambiguous|requested)",
        r"ambiguous conversion", r"incompatible (pointer )?types?", r"invalid operands (of types|to binary)",
        r"cannot initialize (a|an) \w+ of type", r"static assertion failed.*\b(d?types?|dtypes?|supported "
        r"(data )?types?|precision|integer|unsigned|floating[- ]point)\b", r"static_assert.*\bd?types?\b",
        r"static assertion failed.*\bsupports? (only )?(half|float|bfloat16|u?int\d*)",
        r"no viable conversion",
        r"assigning to '.*' from incompatible type", r"is not a valid type for a template non-type parameter"),
    *_r(_C.SCOPE_LIFETIME,
        r"(?-i:'[A-Z][A-Z0-9_]*') is not a member of '[\w:]+'"),    # enumerator / constant absent from its scope
    *_r(_C.MEMORY_OBJECT,
        r"static assertion failed.*\b(ub|buffer|size|align\w*|bytes|queue|depth|capacity|l1|l0[abc]?)\b",
        r"'(class|struct|union) [^']+' has no member named", r"member reference .* no member named",
        r"request for member .* non-class type", r"non-class type", r"invalid use of non-static",
        r"cannot bind", r"lvalue required", r"read-only", r"discards qualifiers", r"incomplete type",
        r"abstract type", r"use of deleted function", r"call to deleted", r"taking address of",
        r"invalid types .* for array subscript", r"subscripted value is not", r"base operand of '->'",
        r"member reference (base )?type .* is (not a pointer|a pointer)", r"invalid type argument of unary",
        r"cannot be used as a function", r"called object type", r"cannot call member function .* without object",
        r"void value not ignored", r"invalid use of void", r"uninitialized (const|reference)",
        r"cannot allocate an object", r"cannot declare (variable|field|parameter) .* to be of",
        r"invalid use of member",
        r"is not a pointer", r"array size", r"size of array", r"exceeds maximum object size",
        r"invalid application of 'sizeof'", r"cannot increment|cannot decrement", r"non-const lvalue reference",
        r"copy constructor|copy assignment"),
    *_r(_C.API_SIGNATURE,
        r"no matching (member )?function for call", r"no matching constructor", r"no matching conversion for",
        r"too (many|few) arguments", r"no match for 'operator", r"is not a member of", r"has no member named",
        r"no member named",
        r"wrong number of template arguments", r"template argument \d+ is invalid", r"call of overloaded .* ambiguous",
        r"call to .* is ambiguous", r"is ambiguous", r"no type named", r"is not a template", r"no template named",
        r"candidate expects", r"undefined reference to", r"undefined symbol", r"static assertion failed",
        r"no viable overloaded", r"no matches converting function", r"expected \d+ arguments?",
        r"requires \d+ arguments?",
        r"is not a (class|namespace|type)", r"does not provide a call operator", r"explicit specialization"),
    *_r(_C.SCOPE_LIFETIME,
        r"was not declared in this scope", r"has not been declared", r"not declared", r"does not name a type",
        r"use of undeclared identifier", r"undeclared identifier", r"unknown type name", r"undeclared",
        r"is (private|protected) within this context", r"is a (private|protected) member", r"redeclaration of",
        r"conflicting declaration", r"redefinition of", r"crosses initialization", r"jump to (case )?label",
        r"not captured", r"is used uninitialized", r"'this' (is unavailable|was not captured)",
        r"invalid use of 'this'", r"there are no arguments to", r"was declared 'extern' and later 'static'",
        r"reference to local variable", r"address of local variable", r"returning reference to temporary",
        r"dangling", r"declared '?(static|inline)'? but never defined", r"multiple definition of",
        r"is not a constant expression|not usable in a constant expression|is not constexpr"),
    *_r(_C.SYNTAX_STRUCTURE,
        r"expected", r"stray '", r"missing terminating", r"unterminated", r"extra qualification",
        r"is not allowed here", r"function-definition", r"return-statement with", r"before numeric constant",
        r"unqualified-id", r"storage class", r"invalid declarator", r"multiple types in one declaration",
        r"declaration does not declare anything", r"not within (a )?(loop|switch)", r"case label",
        r"'else' without", r"empty character constant", r"extra tokens", r"invalid suffix", r"parse error",
        r"two or more data types", r"ISO C\+\+ forbids", r"non-void function", r"no return statement",
        r"invalid (type in )?declaration", r"a function-definition", r"missing template arguments",
        r"template declaration|template parameter", r"control reaches end"),
)


def _norm(text: str) -> str:
    """Unicode quotes (g++ in a UTF-8 locale) to ASCII ones, so rules see one spelling."""
    return text.replace("\u2018", "'").replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')


def parse(log: str) -> list[Diagnostic]:
    """The errors of a compiler/linker log, in order, each with the notes that follow it."""
    diags: list[Diagnostic] = []
    current: dict | None = None
    origin = ""           # the last "required from here" line: where the next error's template was used

    def close() -> None:
        nonlocal current
        if current is not None:
            diags.append(Diagnostic(current["loc"], current["sev"], current["msg"], tuple(current["notes"]),
                                    tuple(current["lines"]), current["origin"]))
        current = None

    for raw in _norm(log).splitlines():
        if _REQUIRED_HERE.match(raw):
            origin = raw.strip()
        m = _HEAD.match(raw) or _BARE.match(raw)
        if m:
            sev = m.group("sev")
            if sev in ("error", "fatal error"):
                close()
                current = {"loc": m.group("loc"), "sev": sev, "msg": m.group("msg").strip(), "notes": [],
                           "lines": [raw], "origin": origin}
                origin = ""
            elif sev == "note" and current is not None:
                current["notes"].append(m.group("msg").strip())
                current["lines"].append(raw)
            elif sev == "warning":
                close()
            continue
        lm = _LINKER.search(raw)
        if lm:
            close()
            diags.append(Diagnostic("ld", "error", raw.strip(), (), (raw,)))
            continue
        if current is not None:
            current["lines"].append(raw)
    close()
    return diags


def _is_element_type(text: str) -> bool:
    """A scalar element type (``float``, ``const half&``, ``uint32_t``), not a tensor or other class."""
    return _DTYPE_WORDS.fullmatch(re.sub(r"\bconst\b|&|\s+$|^\s+", "", text).strip()) is not None


def _conflict_is_kind_mismatch(notes: tuple[str, ...]) -> bool:
    """'deduced conflicting types for parameter T (float and LocalTensor<float>)': a tensor where a
    scalar belongs (or the other way round) is a wrong argument kind, not a dtype mistake. When some
    other candidate conflicts only in element types (half and float), the call is a dtype mistake: a
    long overload set always has candidates that the wrong arity pairs with a tensor."""
    kinds = []
    for note in notes:
        m = re.search(r"deduced conflicting types for parameter '[^']*' \('(.*)' and '(.*)'\)", note)
        if m:
            kinds.append((_is_element_type(m.group(1)), _is_element_type(m.group(2))))
    return any(a != b for a, b in kinds) and not any(a and b for a, b in kinds)


def _conversion_is_dtype_only(notes: tuple[str, ...]) -> bool:
    """A 'no known conversion from X to Y' note where X and Y differ only in element types."""
    for note in notes:
        m = re.search(r"no known conversion for (argument \d+|implicit 'this' parameter) from '(.*)' to '(.*)'",
                      note)
        if not m:
            continue
        a, b = (re.sub(r"\s+|\bconst\b|&", "", _DTYPE_WORDS.sub("T", x)) for x in (m.group(2), m.group(3)))
        if a == b and m.group(2) != m.group(3):
            return True
    return False


def classify_diagnostic(diag: Diagnostic) -> ErrorCategory | None:
    """The class of one error (its notes refine overload failures), or None when no rule matches."""
    msg = diag.message
    if re.search(r"no matching (member )?function|no matching constructor|no viable (?!conversion)", msg,
                 re.IGNORECASE):
        notes = " ".join(diag.notes)
        if _conflict_is_kind_mismatch(diag.notes):
            return ErrorCategory.API_SIGNATURE
        if re.search(r"deduced conflicting types|conflicting types for parameter", notes) or \
                _conversion_is_dtype_only(diag.notes):
            return ErrorCategory.DTYPE_CONVERSION
        if re.search(r"static assertion failed", notes, re.IGNORECASE):
            inner = Diagnostic(diag.location, "error", notes)
            return classify_diagnostic(inner)
        return ErrorCategory.API_SIGNATURE
    if "required from here" in msg:
        return None
    converted = re.search(r"cannot convert '([^']*)' to '([^']*)'", msg)
    if converted and not any(_DTYPE_WORDS.search(t) for t in converted.groups()):
        return ErrorCategory.API_SIGNATURE     # an argument of the wrong kind (an enum, a handle), not a dtype
    operands = re.search(r"no match for 'operator\S*' \(operand types are '([^']*)' and '([^']*)'\)", msg)
    if operands and operands.group(1) != operands.group(2) and \
            len({_DTYPE_WORDS.sub("T", t) for t in operands.groups()}) == 1:
        return ErrorCategory.DTYPE_CONVERSION  # the same kind of operand in two element types (tensor + tensor)
    requested = re.search(r"conversion from '([^']*)'(?: \{aka '[^']*'\})? to non-scalar type '([^']*)'", msg)
    if requested and not any(_is_element_type(t) for t in requested.groups()) and \
            len({_DTYPE_WORDS.sub("T", t) for t in requested.groups()}) == 2:
        return ErrorCategory.API_SIGNATURE     # one kind of object for another (a buffer handle for a tensor)
    if _MACRO_ASSERT.search(msg) or any(_IN_MACRO.search(note) for note in diag.notes):
        return ErrorCategory.MACRO_PREPROCESSING
    for rule in RULES:
        if rule.pattern.search(msg):
            return rule.category
    return None


def classify(log: str) -> ErrorCategory:
    """The taxonomy class of a failed build: that of the first classifiable error, else ``other``.
    An undefined AscendC macro anywhere in the log wins: its expansion failure causes the cascade."""
    diags = parse(log)
    for diag in diags:
        if _UNDEFINED_MACRO.search(diag.message):
            return ErrorCategory.MACRO_PREPROCESSING
    for diag in diags:
        category = classify_diagnostic(diag)
        if category is not None:
            return category
    return ErrorCategory.OTHER


def trim(log: str, limit: int = 4000, max_errors: int = 5, max_notes: int = 3) -> str:
    """The first errors of ``log`` with their source excerpts and a few notes, template-instantiation
    chains and include stacks dropped, cut to ``limit`` characters. Logs without recognisable
    errors are cut to their head and tail."""
    limit = max(limit, 200)
    diags = parse(log)
    if not diags:
        text = log.strip()
        if len(text) <= limit:
            return text
        half = limit // 2 - 20
        return text[:half] + "\n... [log trimmed] ...\n" + text[-half:]
    out: list[str] = []
    for diag in diags[:max_errors]:
        notes_kept = 0
        keep_excerpt = True
        if diag.origin:
            out.append(diag.origin)          # the caller's line of an error inside a library template
        for line in diag.lines:
            head = _HEAD.match(line)
            if head and head.group("sev") == "note":
                if notes_kept >= max_notes or _NOISE.search(head.group("msg")):
                    keep_excerpt = False
                    continue
                notes_kept += 1
                keep_excerpt = True
                out.append(line)
            elif _EXCERPT.match(line):
                if keep_excerpt:
                    out.append(line)
            elif head or not _NOISE.search(line):
                keep_excerpt = True
                if line.strip():
                    out.append(line)
    extra = len(diags) - max_errors
    if extra > 0:
        out.append(f"... [{extra} more error(s) not shown]")
    text = "\n".join(out)
    if len(text) > limit:
        text = text[: limit - 40].rsplit("\n", 1)[0] + "\n... [diagnostics trimmed]"
    return text

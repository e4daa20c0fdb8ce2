"""Why a third-party operator stopped at its first failing layer, normalised, grouped and owned.

:func:`blocker` turns a layer's message into one normalised line (the first error, without file
locations, line numbers and case details); :func:`classify` says whose the failure is:

* ``ours``: the simulator lacks or misdeclares an API or header, or its semantics differ from the
  device's (the corpus's code was built and checked on Ascend hardware);
* ``code``: the code's own: a genuine bug, a build convention of its repository that an op project
  does not carry (a helper from a sibling folder, a file its CMake adds from elsewhere), a file
  renamed without its references, a binding that accepts only the shapes it was tuned for;
* ``limit``: neither: the run is beyond what the benchmark attempts (too large for the CPU
  simulator at the only shapes the operator accepts).

The rules are one table (:data:`RULES`), first match wins; each says why in one line. A missing
header or name is decided by where it lives: found in a file of the operator's repository outside
its op project -> the code's own (a sibling-folder helper); found nowhere in the repository -> a
CANN header or API the simulator lacks -> ours.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_LOCATION = re.compile(r"^(?:\[[a-z_]+\]\s*)?(?:In file included from\s+)?(?:[\w./+-]+:\d+(?::\d+)?:\s*)+"
                       r"(?:fatal\s+)?")
_ERROR = re.compile(r"\berror\b|\bundefined reference\b|\bviolation\b|\bfailed\b|\bmismatch", re.IGNORECASE)


def blocker(message: str) -> str:
    """The first error line of a failure, without file locations and case details, for grouping."""
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    head = next((ln for ln in lines if _ERROR.search(ln) and not ln.startswith("In file included")),
                lines[0] if lines else "(no message)")
    head = _LOCATION.sub("", head)
    head = re.sub(r"^(?:fatal )?error:\s*", "error: ", head)
    head = re.split(r" on case | \(input seed | \(block \d+", head)[0]
    head = re.sub(r"\b0x[0-9a-f]+\b", "0x…", head)
    head = re.sub(r"(?<![\w.])\d{3,}(?![\w.])", "N", head)
    return head[:160]


@dataclass(frozen=True)
class Facts:
    """What a rule may consult besides the blocker line: the operator's repository files outside its
    op project (relative paths), and their text, searched lazily."""

    repo_files: tuple[str, ...] = ()
    repo_text: Callable[[], str] = lambda: ""
    project_files: tuple[str, ...] = ()
    api_names: frozenset[str] = frozenset()       # names the AscendC API reference documents

    def renamed(self, include: str) -> bool:
        """A project file has the included name up to underscores and case (renamed, include not)."""
        want = re.sub(r"[^a-z0-9.]", "", include.rsplit("/", 1)[-1].lower())
        return any(re.sub(r"[^a-z0-9.]", "", f.rsplit("/", 1)[-1].lower()) == want
                   and f.rsplit("/", 1)[-1] != include.rsplit("/", 1)[-1] for f in self.project_files)

    def has_file(self, include: str) -> bool:
        name = include.lstrip("./")
        return any(f == name or f.endswith("/" + name) for f in self.repo_files)

    def defines(self, name: str) -> bool:
        """Whether a repository file defines ``name``: a macro, a class/struct/enum, or a function body."""
        text = self.repo_text()
        start = text.find(name)
        while start != -1:
            end = start + len(name)
            whole = (start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_")) and \
                (end == len(text) or not (text[end].isalnum() or text[end] == "_"))
            if whole:
                line_start = text.rfind("\n", 0, start) + 1
                before = text[line_start:start]
                if _DEFINE_BEFORE.search(before) or _BODY_AFTER.match(text, end, min(len(text), end + 2000)):
                    return True
            start = text.find(name, end)
        return False


_DEFINE_BEFORE = re.compile(r"(#[ \t]*define[ \t]+|\b(?:class|struct|enum)\s+)$")
_BODY_AFTER = re.compile(r"\s*\([^;{)]*\)\s*(?:const\s*)?\{")


@dataclass(frozen=True)
class Rule:
    layer: str                      # the layer the blocker stopped at ("" any)
    pattern: str                    # regex searched in the normalised blocker line
    owner: str                      # "ours" | "code" | "limit"
    reason: str                     # one line: why this owner
    when: str = ""                  # "" | "in_repo" | "not_in_repo" | "renamed" | "cann_path" | "documented"


# Where CANN's package puts the headers op code includes (its include/ tree): a missing header under one of
# these is the simulator's to ship; any other missing header is the code's repository's own.
CANN_INCLUDE_PREFIXES = ("register/", "graph/", "exe_graph/", "tiling/", "platform/", "aclnn/", "aclnnop/", "opdev/",
                         "aclnn_kernels/", "acl/", "log/", "error/", "lib/", "kernel_tiling/", "impl/", "utils/",
                         "common/util/", "experiment/", "base/", "toolchain/", "runtime/", "external/", "adv_api/",
                         "basic_api/", "interface/", "include/")
CANN_INCLUDE_NAMES = ("kernel_operator.h", "kernel_operator_intf.h", "kernel_utils.h", "kernel_tiling.h",
                      "kernel_operator_list_tensor_intf.h", "ops_error.h", "ops_log.h", "op_log.h", "securec.h",
                      "mmpa/mmpa_api.h", "acl_meta.h", "kernel_tpipe.h", "kernel_tensor.h")
_MISSING_HEADER = r"error: (?P<name>[\w./+-]+): No such file or directory"
_UNDECLARED = r"'(?:[\w:]+::)?(?P<name>\w+)' (?:was not declared in this scope|has not been declared|" \
              r"is not a member of|does not name a type|was not declared)|there are no arguments to " \
              r"'(?P<name2>\w+)' that depend on a template parameter"

RULES: tuple[Rule, ...] = (
    # -- the layer could not be attempted ---------------------------------------------------------------
    Rule("kernel_built", r"no kernel file named after|holds no \.cpp kernel", "code",
         "CANN builds op_kernel/<op_type>.cpp; the project has no such file"),
    Rule("kernel_built", r"undefined reference to `(?P<name>\w+)'", "code",
         "the kernel file does not define the entry CANN derives from its name (file renamed, entry not)"),
    Rule("host_built", r"registers no OpDef", "code", "the host code registers no operator"),
    # -- missing headers: where do they live? ---------------------------------------------------------------
    Rule("", _MISSING_HEADER, "code", "a project file has this name up to underscores: the file was renamed, "
         "its #include was not", when="renamed"),
    Rule("", _MISSING_HEADER, "code", "the header lives in a sibling folder of the repository, outside the op "
         "project (a build convention of that repository)", when="in_repo"),
    Rule("", _MISSING_HEADER, "ours", "a header of CANN's package include tree the simulator does not ship",
         when="cann_path"),
    Rule("", _MISSING_HEADER, "code", "a helper header of the repository's common folders (not in the op project "
         "nor in the corpus, not a CANN package header)"),
    # -- undeclared names -------------------------------------------------------------------------------------
    Rule("", _UNDECLARED, "ours", "a documented AscendC API (a page of the API reference) the simulator lacks",
         when="documented"),
    Rule("", _UNDECLARED, "code", "the name is defined by a repository file outside the op project",
         when="in_repo"),
    Rule("", _UNDECLARED, "ours", "a CANN/AscendC name the simulator's headers lack", when="not_in_repo"),
    Rule("", r"no matching function for call to '(?:[\w:]+::)?(?P<name>\w+)\(", "code",
         "the call's arguments fit a function of that name a repository file outside the op project defines "
         "(a helper header of the repository, reached through its include path)", when="in_repo"),
    Rule("", r"has no member named|no matching function for call|no member named|cannot convert|"
             r"invalid conversion|no matching|is private within this context|too (?:many|few) arguments",
         "ours", "a simulator API declared differently from the real one (missing member or overload)"),
    Rule("", r"expected unqualified-id before numeric constant", "ours",
         "a simulator header uses as an identifier a name that real code #defines (the real header does not)"),
    Rule("", r"redefinition of|conflicting declaration|previous declaration|redeclared|"
             r"ambiguous|already defined", "ours",
         "a simulator header defines a name the real headers leave to the code (or declares it otherwise)"),
    Rule("host_built", r"host code calls '\w+': host code may use", "limit",
         "the host-code boundary refuses system calls, files and processes by construction (real tiling code "
         "may log through them on the device)"),
    # -- running ------------------------------------------------------------------------------------------------
    Rule("inputs", r"too large for the simulator", "limit", "the operator accepts only shapes beyond the CPU "
         "simulator's budget"),
    Rule("inputs", r"binding rejects|specialised for|specialized for|custom op|must be|expected|only supports",
         "code", "the operator's binding accepts only the exact shapes it was tuned for"),
    Rule("inputs", r"gen_data|verify_result|example", "code", "the sample's own example scripts fail"),
    Rule("", r"^timeout: the simulated run exceeded", "limit", "the simulated run (tiling and kernel in one launch) "
         "exceeded the benchmark's time limit: the CPU simulator's speed at these sizes"),
    Rule("tiling_ran", r"TilingFunc|tiling function|tiling", "ours",
         "the tiling function ran on the device with these inputs: a host API behaves differently here"),
    Rule("tiling_ran", r"blockDim \d+ outside", "ours", "the simulator runs at most 256 logical blocks; the device "
         "accepts more"),
    Rule("ran_cleanly", r"timeout|exceeded its", "limit", "the simulated run exceeded the benchmark's time limit"),
    Rule("ran_cleanly", r".", "ours", "the kernel ran on the device: a violation or crash here is a simulator "
         "difference until shown otherwise"),
    Rule("matched", r".", "ours", "the kernel matched its golden on the device: a mismatch here is a simulator "
         "difference until shown otherwise"),
    Rule("", r"exceeded its time limit|timed out", "limit", "a step exceeded its time limit on the loaded machine"),
)


def classify(layer: str, line: str, facts: Facts | None = None) -> tuple[str, str]:
    """(owner, reason) of a blocker line at ``layer`` (the first layer that failed)."""
    facts = facts or Facts()
    for rule in RULES:
        if rule.layer and rule.layer != layer:
            continue
        match = re.search(rule.pattern, line)
        if match is None:
            continue
        if rule.when:
            name = match.groupdict().get("name") or match.groupdict().get("name2") or ""
            if rule.when == "renamed":
                holds = facts.renamed(name)
            elif rule.when == "documented":
                holds = name in facts.api_names
            elif rule.when == "cann_path":
                holds = name.startswith(CANN_INCLUDE_PREFIXES) or name in CANN_INCLUDE_NAMES
            else:
                present = facts.has_file(name) if rule.pattern == _MISSING_HEADER else facts.defines(name)
                holds = present == (rule.when == "in_repo")
            if not holds:
                continue
        return rule.owner, rule.reason
    return "ours", "unclassified: assumed ours until looked at (the code built and ran on the device)"


def repo_facts(repo: Path, project: Path, suffixes: tuple[str, ...]) -> Facts:
    """Facts of the repository ``repo`` seen from the op project folder ``project`` (its files excluded)."""
    files = tuple(sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*")
                         if p.is_file() and p.suffix in suffixes and not p.is_relative_to(project)))
    cache: list[str] = []

    def text() -> str:
        if not cache:
            cache.append("\n".join((repo / f).read_text(encoding="utf-8", errors="replace") for f in files))
        return cache[0]
    return Facts(files, text)


def documented_names(docs: Path) -> frozenset[str]:
    """Names the AscendC API reference documents: its page names and the identifiers its API lists
    (``*列表.md``) mention. Empty when the reference is not there."""
    if not docs.is_dir():
        return frozenset()
    names = {re.sub(r"-\d+$", "", p.stem) for p in docs.rglob("*.md")}
    for listing in docs.rglob("*列表.md"):
        names.update(re.findall(r"\b[A-Z][A-Za-z0-9_]{2,}\b", listing.read_text(encoding="utf-8", errors="replace")))
    return frozenset(n for n in names if re.fullmatch(r"[A-Za-z_]\w*", n))

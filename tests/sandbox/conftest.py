"""Real helper programs (compiled with the system g++) for the sandbox tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PROGRAMS = {
    # fork in a loop: every child sleeps, the parent keeps forking
    "forkloop": r"""
#include <unistd.h>
int main() { for (;;) { if (fork() == 0) { for (;;) pause(); } } }
""",
    # a daemon: double fork + setsid, the first parent exits at once
    "daemon": r"""
#include <unistd.h>
#include <stdio.h>
int main() {
  if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) sleep(1000); } _exit(0); }
  printf("parent done\n"); return 0; }
""",
    # spins forever on the CPU
    "spin": r"""
int main() { volatile unsigned long x = 0; for (;;) ++x; }
""",
    # writes a lot to stdout and stderr
    "flood": r"""
#include <stdio.h>
#include <string.h>
int main() { static char line[1024]; memset(line, 'x', sizeof line - 2); line[sizeof line - 2] = '\n';
  fputs("BEGIN\n", stdout);
  for (int i = 0; i < 50 * 1024; ++i) { fputs(line, stdout); fputs(line, stderr); }
  fputs("END\n", stdout); return 0; }
""",
    # how it finds SIGINT on start: blocked? ignored?
    "sigint_state": r"""
#include <signal.h>
#include <stdio.h>
int main() { sigset_t set; sigprocmask(SIG_BLOCK, 0, &set); struct sigaction act; sigaction(SIGINT, 0, &act);
  printf("blocked=%d ignored=%d\n", sigismember(&set, SIGINT), act.sa_handler == SIG_IGN); return 0; }
""",
    # a child that keeps the pipes open after the parent exits
    "linger": r"""
#include <unistd.h>
int main() { if (fork() == 0) { for (;;) sleep(1000); } return 0; }
""",
}


@pytest.fixture(scope="session")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if shutil.which("g++") is None:
        pytest.fail("g++ is needed for the sandbox tests (apt-get install g++)")
    root = tmp_path_factory.mktemp("progs")
    built = {}
    for name, text in PROGRAMS.items():
        src = root / f"{name}.c"
        src.write_text(text)
        exe = root / f"npukb_test_{name}"
        subprocess.run(["g++", "-x", "c++", "-O1", str(src), "-o", str(exe)], check=True)
        built[name] = exe
    return built

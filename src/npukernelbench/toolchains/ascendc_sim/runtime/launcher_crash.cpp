// launcher_crash.cpp -- crash reporting: a signal names the block (or the host step) on stderr, then
// the launcher dies of the same signal; integer division by zero in a block completes as on the device;
// a system call the boundary forbids is named. Part of the ascendc-sim clean-room simulator
// (launcher_internal.h lists the launcher's files).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "npukb_boundary.h"
#include "launcher_internal.h"

namespace npukb {
namespace launcher {

// ---------------------------------------------------------------------------------------------
// Crash reporting: name the block (or the host step) on stderr, then die of the same signal.

const char* g_phase = "startup";

void on_crash(int sig) {
  char buf[320];
  int b = g_running_block.load();
  int n;
  if (b >= 0) {
    n = std::snprintf(buf, sizeof buf, "npukb: block %d of the kernel crashed (signal %d)\n", b, sig);
  } else {
    n = std::snprintf(buf, sizeof buf, "npukb: crashed during %s (signal %d)\n", g_phase, sig);
  }
  if (n > 0) {
    ssize_t ignored = write(2, buf, static_cast<std::size_t>(n));
    (void)ignored;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// Integer division by zero in a kernel block completes as on the device (runtime/scalar_division.cpp).
void on_fpe(int sig, siginfo_t* info, void* context) {
  if (g_running_block.load() >= 0 && info != nullptr && (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF) &&
      npukb::resume_division(context)) {
    return;
  }
  on_crash(sig);
}

// A system call the boundary forbids (seccomp SECCOMP_RET_TRAP): name it, then die of SIGSYS.
void on_sigsys(int sig, siginfo_t* info, void*) {
  char buf[400];
  const long nr = info != nullptr ? static_cast<long>(info->si_syscall) : -1;
  const char* name = nb_syscall_name(nr);
  const int b = g_running_block.load();
  char where[160];
  if (b >= 0) {
    std::snprintf(where, sizeof where, "block %d of the kernel", b);
  } else {
    std::snprintf(where, sizeof where, "%s", g_phase);
  }
  const int n = std::snprintf(buf, sizeof buf,
                              "npukb: forbidden system call %s (number %ld) during %s: candidate code may not start "
                              "programs or processes, open sockets, trace or signal other processes (signal %d)\n",
                              name != nullptr ? name : "?", nr, where, sig);
  if (n > 0) {
    ssize_t ignored = write(2, buf, static_cast<std::size_t>(n));
    (void)ignored;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void install_crash_handlers() {
  static std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS}) {
    struct sigaction sa {};
    if (sig == SIGFPE) {
      sa.sa_sigaction = on_fpe;
      sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    } else if (sig == SIGSYS) {
      sa.sa_sigaction = on_sigsys;
      sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    } else {
      sa.sa_handler = on_crash;
      sa.sa_flags = SA_ONSTACK;
    }
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace launcher
}  // namespace npukb

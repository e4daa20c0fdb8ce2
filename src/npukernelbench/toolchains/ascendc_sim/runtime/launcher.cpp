// launcher.cpp -- main() of the ascendc-sim launcher, which loads a candidate's shared object (its
// host TU and kernel TU, built by builder.py) after confining itself.
// Part of the ascendc-sim clean-room simulator; with the launcher_*.cpp files it implements
// npukb_sim/runtime.h.
//
//   launcher describe <so>        print the registered tiling classes (build step, see tilingdata_base.h)
//   launcher run <dir> <so>       run <dir>/request.txt, write <dir>/result.json and output .bin files
//
// Start-up (docs/security.md): no candidate code runs before the boundary is up. The launcher reads
// and checks the harness's request, forks the InferShape helper, closes every descriptor it does not
// need, drops its capabilities, restricts itself with Landlock (read: the loaded system libraries and
// the candidate's shared object; read-write: the run's directory; nothing else) and installs the
// candidate seccomp allow-list (npukb_boundary.h). Only then does it say "candidate" on the harness's
// phase channel (NPUKB_PHASE_FD), close it, and dlopen the shared object: its static initialisers,
// however spelt, run inside the boundary. A request error before that point is the harness's; after
// it, everything is the candidate's. No candidate thread may outlive the host steps, none can be
// started once the blocks exist, and the process ends with _exit (no candidate destructor runs after
// the result is written).
//
// Run: instantiate the OpDef registered for the op type, check the case's parameters against it,
// run its TilingFunc with a real gert::TilingContext, build the GM buffers (inputs copied in,
// outputs poisoned unless aliased to an input, workspace poisoned, tiling bytes; the poison pattern
// depends on the request's poison_seed, see set_poison_seed), then run every
// block as a thread, cooperatively scheduled (exactly one block runs at a time; a block yields only
// at SyncAll or a cross-core wait), so runs are deterministic. A barrier or a wait nobody can
// satisfy is a hang and is reported as a violation.
//
// Exit codes: 0 ran to the end; 3 hardware violation in the kernel; 4 launch refused (host side:
// OpDef, TilingFunc, block dim, tiling size); 2 bad request (a bug of the caller).
//
// The launcher's concerns each have a file (launcher_internal.h lists them); this one holds main(), the
// order of a run's steps and the phase times.
#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "launcher_internal.h"

namespace npukb {
namespace launcher {
namespace {

// Wall seconds of the launcher's own phases (from main on), for the evaluation-speed profile
// (benchmarks/eval_speed.py): informational, never part of a verdict or of the cost estimate.
struct PhaseTimes {
  double last = 0.0;
  std::string json;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  void mark(const char* name) {
    const double t = now();
    json += std::string(json.empty() ? "{" : ", ") + json_str(name) + ": " + json_num(t - last);
    last = t;
  }
  // The phases, this process's CPU seconds (all its threads) and its peak resident memory.
  void record() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double cpu = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                       static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    result_set("phase_seconds", (json.empty() ? std::string("{") : json) + "}");
    result_set("launcher_cpu_seconds", json_num(cpu));
    result_set("launcher_peak_rss_kb", std::to_string(u.ru_maxrss));
  }
};
PhaseTimes g_times;

[[noreturn]] void run(const std::string& dir, const std::string& so_path) {
  Launch launch(dir);
  launch.parse_request();               // the harness's request: its errors are the harness's
  g_census_fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  start_infer_child(dir, so_path, [&launch]() {
    launch.check_entries();
    launch.check_opdef();
    launch.describe_tensors();
    launch.load_value_depend_inputs();
    launch.describe_attrs();
    launch.find_host_functions();
    return infer_findings(launch.infer_shape_fn, launch.infer_dtype_fn, launch.io, launch.req);
  });
  g_phase = "confining the launcher";
  result_set("boundary", json_str(enter_boundary(dir, true, so_path, {g_infer_fd})));
  g_times.mark("setup");
  load_candidate(so_path);              // from here on, everything is the candidate's
  g_times.mark("load");
  launch.check_entries();
  launch.check_opdef();
  launch.describe_tensors();
  launch.load_value_depend_inputs();
  launch.describe_attrs();
  launch.find_host_functions();
  launch.check_inference();
  launch.run_tiling_parse();
  launch.run_tiling();
  census(1, "when its host code returned");
  g_times.mark("host");
  launch.choose_cores();
  launch.record_tiling();
  launch.allocate_memory();
  launch.set_up_blocks();
  g_times.mark("memory");
  launch.schedule_blocks();
  g_times.mark("kernel");
  launch.write_outputs();
  g_times.mark("write");
  launch.estimate_cost();
  g_times.record();
  launch.finish();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);                             // no candidate destructor runs after the result is written
}

// `describe <so>`: the registered tiling classes and OpDefs of a host-only build.
[[noreturn]] void describe_build(const std::string& so_path) {
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == nullptr) boundary_failure("getcwd failed");
  g_phase = "confining the launcher";
  enter_boundary(cwd, false, so_path, {});    // the host code may read its build folder, not write it
  load_candidate(so_path);
  g_phase = "describing the registered tiling classes and OpDefs";
  describe();
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);
}

// The harness's phase channel (npukb-confine passes it as fd 3 and names it in NPUKB_PHASE_FD).
void open_phase_channel() {
  const char* env = std::getenv("NPUKB_PHASE_FD");
  if (env != nullptr) {
    const int fd = std::atoi(env);
    if (fd > 2 && fcntl(fd, F_GETFD) >= 0) {
      g_phase_fd = fd;
      fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
  }
  unsetenv("NPUKB_PHASE_FD");
}

}  // namespace
}  // namespace launcher
}  // namespace npukb

using namespace npukb::launcher;

int main(int argc, char** argv) {
  g_times.last = PhaseTimes::now();
  install_crash_handlers();
  open_phase_channel();
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "describe" && argc > 2) describe_build(argv[2]);
  if (mode == "run" && argc > 3) run(argv[2], argv[3]);
  std::fprintf(stderr, "usage: %s describe <so> | run <dir> <so>\n", argv[0]);
  return kExitRequest;
}

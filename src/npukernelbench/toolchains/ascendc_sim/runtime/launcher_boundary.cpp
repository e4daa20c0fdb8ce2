// launcher_boundary.cpp -- the boundary (npukb_boundary.h, docs/security.md): the phase channel, the
// launcher confining itself (Landlock, capabilities, seccomp), loading the candidate's shared object
// inside it, and the thread census. Part of the ascendc-sim clean-room simulator (launcher_internal.h
// lists the launcher's files).
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "call_site.h"
#include "npukb_boundary.h"
#include "launcher_internal.h"

namespace npukb {
namespace launcher {

EntryFn npukb_entry = nullptr;
EntryFn npukb_entry_aic = nullptr;
KernelTypeFn npukb_kernel_type = nullptr;

// ---------------------------------------------------------------------------------------------
// The boundary (npukb_boundary.h), entered before the candidate's shared object is loaded.

int g_phase_fd = -1;             // the harness's phase channel, until the candidate's code is loaded
int g_census_fd = -1;            // /proc/self/stat, opened before the boundary: the thread count
void* g_candidate = nullptr;     // dlopen handle of the candidate's shared object

// One line on the phase channel (the harness trusts only what arrives before "candidate").
void phase_report(const std::string& line) {
  if (g_phase_fd < 0) return;
  const std::string text = line + "\n";
  ssize_t ignored = write(g_phase_fd, text.data(), text.size());
  (void)ignored;
}

// The launcher's own failure to confine itself: the harness's, never the candidate's.
[[noreturn]] void boundary_failure(const std::string& why) {
  phase_report("failed: launcher: " + why);
  std::fprintf(stderr, "npukb launcher: cannot confine itself: %s\n", why.c_str());
  std::fflush(stderr);
  _exit(125);
}

// The directories of every library loaded now (the candidate's dependencies are among them).
std::vector<std::string> library_dirs() {
  std::vector<std::string> dirs;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* out = static_cast<std::vector<std::string>*>(data);
        const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        const auto slash = name.rfind('/');
        if (!name.empty() && name[0] == '/' && slash != std::string::npos && slash > 0) {
          const std::string dir = name.substr(0, slash);
          if (std::find(out->begin(), out->end(), dir) == out->end()) out->push_back(dir);
        }
        return 0;
      },
      &dirs);
  return dirs;
}

// Rights in the run's directory: files and directories, no symbolic links, devices, FIFOs or sockets
// (a link planted there could make the harness read a file outside when it collects the outputs).
constexpr std::uint64_t kRunDirRights =
    NB_LL_ALL & ~(NB_LL_EXECUTE | (1ULL << 6) /* MAKE_CHAR */ | (1ULL << 9) /* MAKE_SOCK */ |
                  (1ULL << 10) /* MAKE_FIFO */ | (1ULL << 11) /* MAKE_BLOCK */ | (1ULL << 12) /* MAKE_SYM */);

// Landlock (read: the loaded libraries' directories, the linker cache, the candidate's shared object
// and `dir`; read-write as kRunDirRights when `writable`), no capabilities, the candidate seccomp
// allow-list (signals: to itself only). Returns what was applied, e.g. "landlock+seccomp". Every
// descriptor but 0-2 and `keep` (and the phase channel, still open) is closed first.
std::string enter_boundary(const std::string& dir, bool writable, const std::string& so_path,
                           std::initializer_list<int> keep) {
  char err[600];
  for (int fd = 3; fd < 1024; ++fd) {        // descriptors this process inherited or opened for itself
    bool kept = fd == g_phase_fd || fd == g_census_fd;
    for (int k : keep) kept |= fd == k;
    if (!kept) close(fd);
  }
  std::string applied;
  if (nb_landlock_abi() >= 1) {
    struct nb_landlock ll;
    if (nb_landlock_begin(&ll, 0, err, sizeof err) != 0) boundary_failure(err);
    for (const auto& dir : library_dirs()) {
      if (nb_landlock_allow(&ll, dir.c_str(), NB_LL_READ, err, sizeof err) != 0) boundary_failure(err);
    }
    if (nb_landlock_allow(&ll, "/etc/ld.so.cache", NB_LL_READ, err, sizeof err) != 0 ||
        nb_landlock_allow(&ll, so_path.c_str(), NB_LL_READ, err, sizeof err) != 0 ||
        nb_landlock_allow(&ll, dir.c_str(), writable ? kRunDirRights : NB_LL_READ, err, sizeof err) != 0 ||
        nb_landlock_enforce(&ll, err, sizeof err) != 0) {
      boundary_failure(err);
    }
    applied = "landlock";
  }
  if (nb_drop_capabilities(err, sizeof err) != 0) boundary_failure(err);
  if (nb_seccomp_candidate(static_cast<long>(getpid()), -1, err, sizeof err) == 0) {
    applied += applied.empty() ? "seccomp" : "+seccomp";
  } else if (errno != EINVAL && errno != ENOSYS) {   // a kernel without seccomp filters: not applied
    boundary_failure(err);
  }
  return applied;
}

// Loads the candidate's shared object (its static initialisers run now, inside the boundary) and
// looks up the kernel trampolines and the raw-access cost hook.
void load_candidate(const std::string& so_path) {
  g_phase = "loading the candidate's code (its static initialisers)";
  if (!g_infer_child) {
    phase_report("candidate");
    if (g_phase_fd >= 0) close(g_phase_fd);
    g_phase_fd = -1;
  }
  g_candidate = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (g_candidate == nullptr) {
    const char* why = dlerror();
    launch_error(std::string("cannot load the candidate's code: ") + (why != nullptr ? why : "?"));
  }
  struct link_map* map = nullptr;
  if (dlinfo(g_candidate, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr) {
    npukb::rt::set_kernel_image(static_cast<std::uintptr_t>(map->l_addr));   // call-site offsets: into the .so
  }
  npukb_entry = reinterpret_cast<EntryFn>(dlsym(g_candidate, "npukb_entry"));
  npukb_entry_aic = reinterpret_cast<EntryFn>(dlsym(g_candidate, "npukb_entry_aic"));
  npukb_kernel_type = reinterpret_cast<KernelTypeFn>(dlsym(g_candidate, "npukb_kernel_type"));
  npukb::rt::g_guard.kernel_raw_access =
      reinterpret_cast<npukb::rt::RawAccessFn>(dlsym(g_candidate, "npukb_kernel_raw_access"));
  npukb::rt::g_guard.kernel_scalar_block =
      reinterpret_cast<npukb::rt::ScalarBlockFn>(dlsym(g_candidate, "npukb_kernel_scalar_block"));
}

// Threads of this process now, from the /proc/self/stat opened before the boundary (-1: unknown).
int thread_count() {
  if (g_census_fd < 0) return -1;
  char buf[1024];
  const ssize_t n = pread(g_census_fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -2;
  buf[n] = '\0';
  const char* p = std::strrchr(buf, ')');
  if (p == nullptr) return -2;
  std::istringstream fields(p + 1);
  std::string field;
  for (int i = 0; i < 18 && (fields >> field); ++i) {
  }
  return field.empty() ? -2 : std::atoi(field.c_str());
}

// The candidate may not keep threads of its own: `expected` threads of the launcher's at `when`.
void census(int expected, const char* when) {
  const int n = thread_count();
  if (n == -1) return;            // no /proc here: not checked (docs/security.md)
  if (n == -2) launch_error("the launcher's thread census was tampered with (its /proc/self/stat descriptor)");
  if (n > expected) {
    launch_error("the candidate's code left " + std::to_string(n - expected) + " thread(s) of its own running " + when +
                 ": host code and kernels may not start threads");
  }
}

}  // namespace launcher
}  // namespace npukb

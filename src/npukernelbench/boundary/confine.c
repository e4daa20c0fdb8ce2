/* confine.c -- npukb-confine: confine a command, then exec it (docs/security.md).
 *
 *   npukb-confine [--ro PATH]... [--rw PATH]... [--phase-fd N [--keep-phase]] [--landlock] [--seccomp]
 *                 [--allow-network] [--own-proc] -- COMMAND [ARG]...
 *   npukb-confine --probe
 *
 * In this order: drop every capability (uid 0 keeps no privilege), apply Landlock (the system
 * read-only and executable, the --ro paths read-only and executable, the --rw paths read-write, the
 * null/zero/random devices, nothing else; no TCP; signals and abstract sockets only within the
 * sandbox), install the tools' seccomp policy (no sockets, tracing, namespaces, mounts, keyrings,
 * modules, BPF or io_uring), close every inherited descriptor but 0-2 (and the phase channel), then
 * exec the command.
 *
 * The phase channel (--phase-fd, a pipe from the harness) gets "confined\n" just before the exec,
 * "failed: WHY\n" when a step of the confinement failed and "exec-failed: WHY\n" when the exec did:
 * the harness tells its own failures from the command's by these lines, which the command cannot
 * write (the descriptor is closed on exec) -- unless --keep-phase hands it to the command as fd 3
 * (NPUKB_PHASE_FD=3 in its environment), for a command of ours that reports its own phases (the
 * simulator's launcher, which closes it before it loads candidate code).
 *
 * --own-proc lets the command read its own /proc/<pid> (the launcher counts its threads there before
 * it confines itself further); no other process's.
 *
 * --probe prints "landlock ABI seccomp 0|1" after trying both on itself.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/socket.h>

#include "npukb_boundary.h"

#define MAX_PATHS 256

static const char* const system_roots[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                                           "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                           "/etc/alternatives", NULL};

static int phase_fd = -1;

static void phase(const char* line) {
  if (phase_fd >= 0) {
    ssize_t ignored = write(phase_fd, line, strlen(line));
    (void)ignored;
  }
}

static void fail(const char* why) {
  char line[600];
  snprintf(line, sizeof line, "failed: %s\n", why);
  phase(line);
  fprintf(stderr, "npukb-confine: %s\n", why);
  _exit(125);
}

static int probe(void) {
  char err[300];
  int abi = nb_landlock_abi();
  int seccomp_ok = 0, landlock_ok = 0;
  if (abi >= 1) {
    struct nb_landlock ll;
    if (nb_landlock_begin(&ll, 0, err, sizeof err) == 0 && nb_landlock_allow(&ll, "/usr", NB_LL_READ_EXEC, err,
                                                                             sizeof err) == 0 &&
        nb_landlock_enforce(&ll, err, sizeof err) == 0) {
      int inside = open("/usr", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      int outside = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      landlock_ok = inside >= 0 && outside < 0 && errno == EACCES;
      if (inside >= 0) close(inside);
      if (outside >= 0) close(outside);
    }
  }
  if (nb_seccomp_step(0, err, sizeof err) == 0) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    seccomp_ok = s < 0 && errno == EPERM;
    if (s >= 0) close(s);
  }
  printf("landlock %d seccomp %d\n", landlock_ok ? abi : 0, seccomp_ok);
  return 0;
}

int main(int argc, char** argv) {
  const char* ro[MAX_PATHS];
  const char* rw[MAX_PATHS];
  int n_ro = 0, n_rw = 0, keep_phase = 0, landlock = 0, seccomp = 0, network = 0, own_proc = 0, i;
  char err[600];
  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--") == 0) {
      ++i;
      break;
    }
    if (strcmp(argv[i], "--probe") == 0) return probe();
    if (strcmp(argv[i], "--keep-phase") == 0) {
      keep_phase = 1;
    } else if (strcmp(argv[i], "--landlock") == 0) {
      landlock = 1;
    } else if (strcmp(argv[i], "--seccomp") == 0) {
      seccomp = 1;
    } else if (strcmp(argv[i], "--allow-network") == 0) {
      network = 1;
    } else if (strcmp(argv[i], "--own-proc") == 0) {
      own_proc = 1;
    } else if (i + 1 < argc && strcmp(argv[i], "--ro") == 0 && n_ro < MAX_PATHS) {
      ro[n_ro++] = argv[++i];
    } else if (i + 1 < argc && strcmp(argv[i], "--rw") == 0 && n_rw < MAX_PATHS) {
      rw[n_rw++] = argv[++i];
    } else if (i + 1 < argc && strcmp(argv[i], "--phase-fd") == 0) {
      phase_fd = atoi(argv[++i]);
      if (phase_fd < 3 || fcntl(phase_fd, F_GETFD) < 0) {
        phase_fd = -1;
        fail("--phase-fd is not an open descriptor");
      }
    } else {
      char why[400];
      snprintf(why, sizeof why, "unknown or incomplete option %s", argv[i]);
      fail(why);
    }
  }
  if (i >= argc) fail("no command to run");

  if (nb_drop_capabilities(err, sizeof err) != 0) fail(err);
  if (landlock) {
    struct nb_landlock ll;
    int k;
    if (nb_landlock_begin(&ll, network, err, sizeof err) != 0) fail(err);
    for (k = 0; system_roots[k] != NULL; ++k) {
      if (nb_landlock_allow(&ll, system_roots[k], NB_LL_READ_EXEC, err, sizeof err) != 0) fail(err);
    }
    for (k = 0; k < n_ro; ++k) {
      if (nb_landlock_allow(&ll, ro[k], NB_LL_READ_EXEC, err, sizeof err) != 0) fail(err);
    }
    for (k = 0; k < n_rw; ++k) {
      if (nb_landlock_allow(&ll, rw[k], NB_LL_ALL, err, sizeof err) != 0) fail(err);
    }
    if (nb_landlock_allow_devices(&ll, err, sizeof err) != 0) fail(err);
    /* This process's own /proc/<pid> (the pid survives the exec), found through /proc/self: in a pid
       namespace without its own /proc, getpid() is not the number /proc knows it by. */
    if (own_proc && nb_landlock_allow(&ll, "/proc/self", NB_LL_READ, err, sizeof err) != 0) fail(err);
    if (nb_landlock_enforce(&ll, err, sizeof err) != 0) fail(err);
  }
  if (seccomp && nb_seccomp_step(network, err, sizeof err) != 0) fail(err);

  /* Descriptors: 0-2 and the phase channel only. */
  if (phase_fd >= 0 && keep_phase && phase_fd != 3) {
    if (dup2(phase_fd, 3) != 3) fail("dup2 of the phase channel");
    close(phase_fd);
    phase_fd = 3;
  }
  nb_close_fds(3, phase_fd);
  if (phase_fd >= 0) {
    if (keep_phase) {
      fcntl(phase_fd, F_SETFD, 0);
      setenv("NPUKB_PHASE_FD", "3", 1);
    } else {
      fcntl(phase_fd, F_SETFD, FD_CLOEXEC);
    }
  }
  if (!keep_phase) unsetenv("NPUKB_PHASE_FD");
  phase("confined\n");
  execvp(argv[i], argv + i);
  {
    char line[600];
    int code = errno;
    snprintf(line, sizeof line, "exec-failed: %s: %s\n", argv[i], strerror(code));
    phase(line);
    fprintf(stderr, "npukb-confine: cannot execute %s: %s\n", argv[i], strerror(code));
  }
  return 127;
}

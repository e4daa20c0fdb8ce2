/* npukb_boundary.h -- the kernel-enforced boundary around candidate processes (docs/security.md).
 *
 * Shared by the step confiner (confine.c: builds and every other confined command) and the
 * simulator's launcher (which installs the strict policy itself before it loads the candidate's
 * shared object). C and C++ compatible; every function is static.
 *
 *   nb_close_fds          close every descriptor from `low` up (but `keep`)
 *   nb_drop_capabilities  root without capabilities: securebits (no root privilege on exec), empty
 *                         bounding, ambient, permitted, effective and inheritable sets
 *   nb_landlock_*         file-system rules: system read-only, named paths read-only or read-write,
 *                         nothing else; TCP bind/connect denied; signals and abstract UNIX sockets
 *                         scoped to the sandbox where the kernel's Landlock ABI has them
 *   nb_seccomp_step       deny-list for tools (compilers may exec and fork): no sockets, no tracing,
 *                         no namespaces, no mounts, no kernel keyrings, modules, BPF, io_uring
 *   nb_seccomp_candidate  allow-list for candidate code: memory, threads, files through the paths
 *                         Landlock allows, time, futexes, signals to itself;
 *                         forbidden calls (exec, processes, sockets, tracing, other processes) trap
 *                         (SIGSYS), anything else fails with EPERM
 *   nb_seccomp_no_clone   stacked on top for every thread (TSYNC): no thread or process at all
 *
 * The syscall numbers come from <sys/syscall.h> of the machine that compiles this file; the filters
 * check the architecture first (x86_64, aarch64) and kill the process for any other ABI (x32, i386).
 */
#ifndef NPUKB_BOUNDARY_H
#define NPUKB_BOUNDARY_H

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NB_FN static __attribute__((unused))

#if defined(__x86_64__)
#define NB_AUDIT_ARCH AUDIT_ARCH_X86_64
#define NB_X32_BIT 0x40000000U
#elif defined(__aarch64__)
#define NB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* Syscalls newer than some libc headers (numbers are shared by every architecture since 5.1). */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#define SYS_move_mount 429
#define SYS_fsopen 430
#define SYS_fsconfig 431
#define SYS_fsmount 432
#define SYS_fspick 433
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif

/* ------------------------------------------------------------------------------------ messages */

NB_FN void nb_say(char* err, size_t len, const char* what, int code) {
  if (err != NULL && len > 0) snprintf(err, len, "%s: %s", what, strerror(code));
}

/* ---------------------------------------------------------------------------------- descriptors */

/* Close every descriptor >= low except `keep` (-1: none). */
NB_FN void nb_close_fds(int low, int keep) {
  if (keep >= low) {
    if (keep > low) syscall(SYS_close_range, (unsigned)low, (unsigned)(keep - 1), 0u);
    if (syscall(SYS_close_range, (unsigned)(keep + 1), ~0u, 0u) == 0) return;
  } else if (syscall(SYS_close_range, (unsigned)low, ~0u, 0u) == 0) {
    return;
  }
  {
    long top = sysconf(_SC_OPEN_MAX);
    int fd;
    if (top < 0 || top > 1 << 20) top = 1 << 16;
    for (fd = low; fd < top; ++fd) {
      if (fd != keep) close(fd);
    }
  }
}

/* -------------------------------------------------------------------------------- capabilities */

struct nb_cap_header {
  uint32_t version;
  int pid;
};
struct nb_cap_data {
  uint32_t effective, permitted, inheritable;
};

/* Drop every capability for good: after this even uid 0 has no privilege, also across execve.
   Returns 0, or -1 when capabilities remain (err says which step failed). */
NB_FN int nb_drop_capabilities(char* err, size_t len) {
  struct nb_cap_header head;
  struct nb_cap_data data[2];
  int cap;
  head.version = 0x20080522; /* _LINUX_CAPABILITY_VERSION_3 */
  head.pid = 0;
  memset(data, 0, sizeof data);
  if (syscall(SYS_capget, &head, data) != 0) {
    nb_say(err, len, "capget", errno);
    return -1;
  }
  if (data[0].permitted == 0 && data[1].permitted == 0 && data[0].effective == 0 && data[1].effective == 0) {
    /* Nothing to drop now; keep execve from granting any (a setuid-root or file-capability
       program): no_new_privs, set by the caller before exec, does that. */
    return 0;
  }
  /* SECBIT_NOROOT | _LOCKED | SECBIT_NO_SETUID_FIXUP | _LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE | _LOCKED */
  if (prctl(PR_SET_SECUREBITS, 0x1 | 0x2 | 0x4 | 0x8 | 0x40 | 0x80, 0, 0, 0) != 0) {
    nb_say(err, len, "prctl(PR_SET_SECUREBITS)", errno);
    return -1;
  }
  for (cap = 0; cap < 64; ++cap) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno == EINVAL) break;
  }
  prctl(47 /* PR_CAP_AMBIENT */, 4 /* PR_CAP_AMBIENT_CLEAR_ALL */, 0, 0, 0);
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &head, data) != 0) {
    nb_say(err, len, "capset", errno);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------ landlock */

#define NB_LL_EXECUTE (1ULL << 0)
#define NB_LL_WRITE_FILE (1ULL << 1)
#define NB_LL_READ_FILE (1ULL << 2)
#define NB_LL_READ_DIR (1ULL << 3)
#define NB_LL_TRUNCATE (1ULL << 14)
#define NB_LL_IOCTL_DEV (1ULL << 15)
#define NB_LL_FILE_RIGHTS (NB_LL_EXECUTE | NB_LL_WRITE_FILE | NB_LL_READ_FILE | NB_LL_TRUNCATE | NB_LL_IOCTL_DEV)

struct nb_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net; /* ABI 4 */
  uint64_t scoped;             /* ABI 6 */
};

struct nb_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

/* The Landlock ABI version of the running kernel, or -1 when Landlock is unavailable. */
NB_FN int nb_landlock_abi(void) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1u /* LANDLOCK_CREATE_RULESET_VERSION */);
  return abi < 0 ? -1 : (int)abi;
}

/* Every file-system right the ABI knows. */
NB_FN uint64_t nb_landlock_fs_rights(int abi) {
  uint64_t all = (1ULL << 13) - 1; /* ABI 1: EXECUTE .. MAKE_SYM */
  if (abi >= 2) all |= 1ULL << 13; /* REFER */
  if (abi >= 3) all |= 1ULL << 14; /* TRUNCATE */
  if (abi >= 5) all |= 1ULL << 15; /* IOCTL_DEV */
  return all;
}

struct nb_landlock {
  int fd;
  int abi;
  uint64_t handled;
};

/* Start a ruleset handling every right of the kernel's ABI (TCP bind/connect too unless
   `allow_network`; signals and abstract UNIX sockets scoped to the sandbox from ABI 6). */
NB_FN int nb_landlock_begin(struct nb_landlock* ll, int allow_network, char* err, size_t len) {
  struct nb_ruleset_attr attr;
  size_t size = sizeof(uint64_t);
  ll->fd = -1;
  ll->abi = nb_landlock_abi();
  if (ll->abi < 1) {
    nb_say(err, len, "landlock_create_ruleset", ENOSYS);
    return -1;
  }
  memset(&attr, 0, sizeof attr);
  ll->handled = attr.handled_access_fs = nb_landlock_fs_rights(ll->abi);
  if (ll->abi >= 4) {
    size = 2 * sizeof(uint64_t);
    if (!allow_network) attr.handled_access_net = 0x1 | 0x2; /* BIND_TCP | CONNECT_TCP */
  }
  if (ll->abi >= 6) {
    size = 3 * sizeof(uint64_t);
    attr.scoped = 0x1 | 0x2; /* ABSTRACT_UNIX_SOCKET | SIGNAL */
  }
  ll->fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0u);
  if (ll->fd < 0) {
    nb_say(err, len, "landlock_create_ruleset", errno);
    return -1;
  }
  return 0;
}

/* Allow `access` beneath `path` (a file gets only the file rights among them). A path that does not
   exist is skipped (returns 0); any other failure returns -1. */
NB_FN int nb_landlock_allow(struct nb_landlock* ll, const char* path, uint64_t access, char* err, size_t len) {
  struct nb_path_beneath_attr rule;
  struct stat st;
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0 : (nb_say(err, len, path, errno), -1);
  if (fstat(fd, &st) != 0) {
    nb_say(err, len, path, errno);
    close(fd);
    return -1;
  }
  access &= ll->handled;
  if (!S_ISDIR(st.st_mode)) access &= NB_LL_FILE_RIGHTS;
  rule.allowed_access = access;
  rule.parent_fd = fd;
  if (access != 0 && syscall(SYS_landlock_add_rule, ll->fd, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &rule, 0u) != 0) {
    nb_say(err, len, path, errno);
    close(fd);
    return -1;
  }
  close(fd);
  return 0;
}

#define NB_LL_READ (NB_LL_READ_FILE | NB_LL_READ_DIR)
#define NB_LL_READ_EXEC (NB_LL_READ | NB_LL_EXECUTE)
#define NB_LL_DEVICE (NB_LL_READ_FILE | NB_LL_WRITE_FILE | NB_LL_TRUNCATE | NB_LL_IOCTL_DEV)
#define NB_LL_ALL (~0ULL)

/* The character devices every program may use. */
static const char* const nb_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", NULL};

NB_FN int nb_landlock_allow_devices(struct nb_landlock* ll, char* err, size_t len) {
  int i;
  for (i = 0; nb_devices[i] != NULL; ++i) {
    if (nb_landlock_allow(ll, nb_devices[i], NB_LL_DEVICE, err, len) != 0) return -1;
  }
  return 0;
}

/* Enforce the ruleset on this thread (and what it execs); needs no_new_privs first. */
NB_FN int nb_landlock_enforce(struct nb_landlock* ll, char* err, size_t len) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    nb_say(err, len, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
    return -1;
  }
  if (syscall(SYS_landlock_restrict_self, ll->fd, 0u) != 0) {
    nb_say(err, len, "landlock_restrict_self", errno);
    close(ll->fd);
    return -1;
  }
  close(ll->fd);
  ll->fd = -1;
  return 0;
}

/* ------------------------------------------------------------------------------------- seccomp */

#define NB_BPF_MAX 1024

struct nb_bpf {
  struct sock_filter ins[NB_BPF_MAX];
  unsigned short n;
  int overflow;
};

NB_FN void nb_emit(struct nb_bpf* p, unsigned short code, unsigned char jt, unsigned char jf, uint32_t k) {
  if (p->n >= NB_BPF_MAX) {
    p->overflow = 1;
    return;
  }
  p->ins[p->n].code = code;
  p->ins[p->n].jt = jt;
  p->ins[p->n].jf = jf;
  p->ins[p->n].k = k;
  ++p->n;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NB_ARG_LOW(i) ((uint32_t)(offsetof(struct seccomp_data, args) + 8 * (i)))
#else
#define NB_ARG_LOW(i) ((uint32_t)(offsetof(struct seccomp_data, args) + 8 * (i) + 4))
#endif

#define NB_ALLOW SECCOMP_RET_ALLOW
#define NB_TRAP SECCOMP_RET_TRAP
#define NB_ERRNO(e) (SECCOMP_RET_ERRNO | ((uint32_t)(e) & SECCOMP_RET_DATA))

/* Architecture check, then the syscall number in the accumulator. */
NB_FN void nb_prologue(struct nb_bpf* p) {
  nb_emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)offsetof(struct seccomp_data, arch));
  nb_emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, NB_AUDIT_ARCH);
  nb_emit(p, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_KILL_PROCESS);
  nb_emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)offsetof(struct seccomp_data, nr));
#ifdef NB_X32_BIT
  nb_emit(p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, NB_X32_BIT);
  nb_emit(p, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_KILL_PROCESS);
#endif
}

/* if (nr == number) return action; (accumulator: the syscall number) */
NB_FN void nb_on(struct nb_bpf* p, long number, uint32_t action) {
  if (number < 0) return;
  nb_emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (uint32_t)number);
  nb_emit(p, BPF_RET | BPF_K, 0, 0, action);
}

/* if (nr == number) { return (low 32 bits of arg `arg`) & mask ? if_set : if_clear; } */
NB_FN void nb_on_flags(struct nb_bpf* p, long number, int arg, uint32_t mask, uint32_t if_set, uint32_t if_clear) {
  nb_emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 4, (uint32_t)number);
  nb_emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, NB_ARG_LOW(arg));
  nb_emit(p, BPF_JMP | BPF_JSET | BPF_K, 0, 1, mask);
  nb_emit(p, BPF_RET | BPF_K, 0, 0, if_set);
  nb_emit(p, BPF_RET | BPF_K, 0, 0, if_clear);
}

/* if (nr == number) { return arg `arg` is one of a, b ? ALLOW : otherwise; } (b < 0: only a) */
NB_FN void nb_on_arg_in(struct nb_bpf* p, long number, int arg, long a, long b, uint32_t otherwise) {
  nb_emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 5, (uint32_t)number);
  nb_emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, NB_ARG_LOW(arg));
  nb_emit(p, BPF_JMP | BPF_JEQ | BPF_K, 2, 0, (uint32_t)a);
  nb_emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, (uint32_t)(b < 0 ? a : b));
  nb_emit(p, BPF_RET | BPF_K, 0, 0, otherwise);
  nb_emit(p, BPF_RET | BPF_K, 0, 0, NB_ALLOW);
}

/* Install `p` (flags: SECCOMP_FILTER_FLAG_*); `first`: set no_new_privs first (a later filter runs
   under an earlier one, which may forbid prctl). */
NB_FN int nb_install(struct nb_bpf* p, unsigned int flags, int first, char* err, size_t len) {
  struct sock_fprog prog;
  if (p->overflow) {
    nb_say(err, len, "seccomp program too long", E2BIG);
    return -1;
  }
  prog.len = p->n;
  prog.filter = p->ins;
  if (first && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    nb_say(err, len, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
    return -1;
  }
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog) != 0) {
    nb_say(err, len, "seccomp(SECCOMP_SET_MODE_FILTER)", errno);
    return -1;
  }
  return 0;
}

/* Namespace flags of clone/unshare. */
#define NB_CLONE_NAMESPACES                                                                                  \
  (0x00020000U /* NEWNS */ | 0x02000000U /* NEWCGROUP */ | 0x04000000U /* NEWUTS */ | 0x08000000U /* NEWIPC */ | \
   0x10000000U /* NEWUSER */ | 0x20000000U /* NEWPID */ | 0x40000000U /* NEWNET */ | 0x00000080U /* NEWTIME */)
#define NB_CLONE_THREAD 0x00010000U

/* What no confined process may do, tools included. */
static const long nb_escapes[] = {
    SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, SYS_pidfd_getfd, SYS_process_madvise,
    SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_unshare, SYS_setns, SYS_open_tree, SYS_move_mount,
    SYS_fsopen, SYS_fsconfig, SYS_fsmount, SYS_fspick, SYS_mount_setattr, SYS_keyctl, SYS_add_key, SYS_request_key,
    SYS_bpf, SYS_perf_event_open, SYS_userfaultfd, SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
    SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_kexec_load,
#ifdef SYS_kexec_file_load
    SYS_kexec_file_load,
#endif
    SYS_reboot, SYS_swapon, SYS_swapoff, SYS_acct, SYS_syslog, SYS_name_to_handle_at, SYS_open_by_handle_at,
    SYS_quotactl, SYS_fanotify_init, SYS_settimeofday, SYS_clock_settime, SYS_adjtimex, SYS_clock_adjtime,
    SYS_sethostname, SYS_setdomainname, SYS_process_mrelease,
#ifdef SYS_iopl
    SYS_iopl, SYS_ioperm,
#endif
#ifdef SYS_lookup_dcookie
    SYS_lookup_dcookie,
#endif
    SYS_socket, SYS_socketpair, SYS_connect, SYS_bind, SYS_listen, SYS_accept, SYS_accept4,
    -1};

/* The tools' policy (compilers, binutils, the shell): everything except nb_escapes; clone with a
   namespace flag fails; clone3 reports ENOSYS (libc then uses clone, whose flags are checked).
   `allow_network` keeps the socket calls. */
NB_FN int nb_seccomp_step(int allow_network, char* err, size_t len) {
  static struct nb_bpf p;
  int i;
#ifndef NB_AUDIT_ARCH
  nb_say(err, len, "seccomp filter for this architecture", ENOSYS);
  return -1;
#endif
  memset(&p, 0, sizeof p);
  nb_prologue(&p);
  nb_on(&p, SYS_clone3, NB_ERRNO(ENOSYS));
  nb_on_flags(&p, SYS_clone, 0, NB_CLONE_NAMESPACES, NB_ERRNO(EPERM), NB_ALLOW);
  for (i = 0; nb_escapes[i] >= 0; ++i) {
    const long nr = nb_escapes[i];
    if (allow_network && (nr == SYS_socket || nr == SYS_socketpair || nr == SYS_connect || nr == SYS_bind ||
                          nr == SYS_listen || nr == SYS_accept || nr == SYS_accept4)) {
      continue;
    }
    nb_on(&p, nr, NB_ERRNO(EPERM));
  }
  nb_emit(&p, BPF_RET | BPF_K, 0, 0, NB_ALLOW);
  return nb_install(&p, 0, 1, err, len);
}

/* The candidate's policy (see the file comment). `self`: this process's pid; `child`: another pid it
   may signal (-1: none; the launcher passes none: a pid can be reused once its process is gone). */
NB_FN int nb_seccomp_candidate(long self, long child, char* err, size_t len) {
  static struct nb_bpf p;
  static const long allowed[] = {
      SYS_futex, SYS_read, SYS_write, SYS_mmap, SYS_munmap, SYS_mprotect, SYS_madvise, SYS_brk, SYS_mremap,
      SYS_sched_yield, SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday,
      SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigpending, SYS_rt_sigsuspend,
      SYS_rt_sigtimedwait, SYS_sigaltstack, SYS_restart_syscall, SYS_exit, SYS_exit_group, SYS_getpid, SYS_gettid,
      SYS_getppid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getresuid, SYS_getresgid,
      SYS_set_robust_list, SYS_get_robust_list, SYS_set_tid_address, SYS_openat, SYS_close, SYS_close_range,
      SYS_fstat, SYS_newfstatat, SYS_statx, SYS_lseek, SYS_pread64, SYS_pwrite64, SYS_readv, SYS_writev,
      SYS_preadv, SYS_pwritev, SYS_fcntl, SYS_dup, SYS_dup3, SYS_getdents64, SYS_readlinkat, SYS_faccessat,
      SYS_getcwd, SYS_fsync, SYS_fdatasync, SYS_fstatfs, SYS_statfs, SYS_umask, SYS_uname,
      SYS_sysinfo, SYS_getrandom, SYS_sched_getaffinity, SYS_sched_getparam, SYS_sched_getscheduler,
      SYS_getpriority, SYS_getrusage, SYS_times, SYS_wait4, SYS_waitid, SYS_ppoll, SYS_pselect6, SYS_membarrier,
      SYS_getcpu, SYS_seccomp, SYS_mincore, SYS_msync, SYS_pipe2,
#ifdef SYS_faccessat2
      SYS_faccessat2,
#endif
#ifdef SYS_renameat
      SYS_renameat,
#endif
#ifdef SYS_renameat2
      SYS_renameat2,
#endif
#ifdef SYS_getrlimit
      SYS_getrlimit,
#endif
#ifdef SYS_rseq
      SYS_rseq,
#endif
#ifdef SYS_open
      SYS_open, SYS_stat, SYS_lstat, SYS_access, SYS_readlink, SYS_poll, SYS_select, SYS_dup2, SYS_pause,
      SYS_rename, SYS_time, SYS_getdents, SYS_pipe,
#endif
#ifdef SYS_arch_prctl
      SYS_arch_prctl,
#endif
      -1};
  static const long forbidden[] = {
      SYS_execve, SYS_execveat, SYS_tkill, SYS_pidfd_open, SYS_pidfd_send_signal, SYS_setsid, SYS_setpgid,
#ifdef SYS_fork
      SYS_fork, SYS_vfork,
#endif
      -1};
  int i;
#ifndef NB_AUDIT_ARCH
  nb_say(err, len, "seccomp filter for this architecture", ENOSYS);
  return -1;
#endif
  memset(&p, 0, sizeof p);
  nb_prologue(&p);
  for (i = 0; allowed[i] >= 0; ++i) nb_on(&p, allowed[i], NB_ALLOW);
  nb_on_flags(&p, SYS_clone, 0, NB_CLONE_THREAD, NB_ALLOW, NB_TRAP);       /* threads only */
  nb_on(&p, SYS_clone3, NB_ERRNO(ENOSYS));
  nb_on_arg_in(&p, SYS_kill, 0, self, child, NB_TRAP);                     /* itself (and its helper) */
  nb_on_arg_in(&p, SYS_tgkill, 0, self, child, NB_TRAP);
  nb_on_arg_in(&p, SYS_rt_sigqueueinfo, 0, self, child, NB_TRAP);
  nb_on_arg_in(&p, SYS_rt_tgsigqueueinfo, 0, self, child, NB_TRAP);
  nb_on_arg_in(&p, SYS_prlimit64, 0, 0, self, NB_ERRNO(EPERM));           /* its own limits */
  for (i = 0; nb_escapes[i] >= 0; ++i) nb_on(&p, nb_escapes[i], NB_TRAP);
  for (i = 0; forbidden[i] >= 0; ++i) nb_on(&p, forbidden[i], NB_TRAP);
  nb_emit(&p, BPF_RET | BPF_K, 0, 0, NB_ERRNO(EPERM));
  return nb_install(&p, 0, 1, err, len);
}

/* Stacked on every thread of the process (after nb_seccomp_candidate): no new thread or process
   from here on. */
NB_FN int nb_seccomp_no_clone(char* err, size_t len) {
  static struct nb_bpf p;
#ifndef NB_AUDIT_ARCH
  nb_say(err, len, "seccomp filter for this architecture", ENOSYS);
  return -1;
#endif
  memset(&p, 0, sizeof p);
  nb_prologue(&p);
  nb_on(&p, SYS_clone, NB_TRAP);
  nb_on(&p, SYS_clone3, NB_TRAP);
#ifdef SYS_fork
  nb_on(&p, SYS_fork, NB_TRAP);
  nb_on(&p, SYS_vfork, NB_TRAP);
#endif
  nb_emit(&p, BPF_RET | BPF_K, 0, 0, NB_ALLOW);
  return nb_install(&p, SECCOMP_FILTER_FLAG_TSYNC, 0, err, len);
}

/* Name of a syscall the candidate policy traps (for the message), or NULL. */
NB_FN const char* nb_syscall_name(long nr) {
  static const struct {
    long nr;
    const char* name;
  } names[] = {
    {SYS_execve, "execve"}, {SYS_execveat, "execveat"}, {SYS_clone, "clone (a new process)"},
    {SYS_clone3, "clone3"}, {SYS_kill, "kill (another process)"}, {SYS_tgkill, "tgkill (another process)"},
    {SYS_tkill, "tkill"}, {SYS_rt_sigqueueinfo, "rt_sigqueueinfo (another process)"},
    {SYS_rt_tgsigqueueinfo, "rt_tgsigqueueinfo (another process)"}, {SYS_ptrace, "ptrace"},
    {SYS_process_vm_readv, "process_vm_readv"}, {SYS_process_vm_writev, "process_vm_writev"},
    {SYS_socket, "socket"}, {SYS_socketpair, "socketpair"}, {SYS_connect, "connect"}, {SYS_bind, "bind"},
    {SYS_listen, "listen"}, {SYS_accept, "accept"}, {SYS_accept4, "accept4"}, {SYS_unshare, "unshare"},
    {SYS_setns, "setns"}, {SYS_mount, "mount"}, {SYS_chroot, "chroot"}, {SYS_pidfd_open, "pidfd_open"},
    {SYS_pidfd_getfd, "pidfd_getfd"}, {SYS_pidfd_send_signal, "pidfd_send_signal"}, {SYS_setsid, "setsid"},
    {SYS_setpgid, "setpgid"}, {SYS_bpf, "bpf"}, {SYS_perf_event_open, "perf_event_open"},
    {SYS_io_uring_setup, "io_uring_setup"}, {SYS_userfaultfd, "userfaultfd"}, {SYS_keyctl, "keyctl"},
    {SYS_kcmp, "kcmp"},
#ifdef SYS_fork
    {SYS_fork, "fork"}, {SYS_vfork, "vfork"},
#endif
    {-1, NULL}};
  int i;
  for (i = 0; names[i].name != NULL; ++i) {
    if (names[i].nr == nr) return names[i].name;
  }
  return NULL;
}

#endif /* NPUKB_BOUNDARY_H */

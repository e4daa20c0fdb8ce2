// call_site.h -- runtime-internal: where in the kernel an API was called, found without asking the caller.
// Part of the ascendc-sim clean-room simulator; shared by the launcher's files and the kernel-side test runtime.
//
// The kernel-side API has the real signatures: no trailing (file, line) parameters. When the runtime
// reports a violation, a warning or a wait, it records the return addresses on the calling thread's
// stack instead, as offsets into the image that holds the kernel (the candidate's shared object), in a
// token `{{npukb-at:OFF,OFF,...}}` (hex, innermost first). After the run, outside the candidate's
// process, the toolchain symbolises the offsets with that image's line tables (the kernel TU is compiled with -g1, which keeps inlining records) and
// replaces the token with the first source line in the candidate's own files (call_sites.py): the line
// of the kernel that called the API, however deep inside the simulator the check ran.
#pragma once
#include <link.h>
#include <unwind.h>

#include <cstdint>
#include <string>

namespace npukb {
namespace rt {

constexpr int kMaxCallFrames = 48;
constexpr const char* kCallSiteOpen = "{{npukb-at:";
constexpr const char* kCallSiteClose = "}}";

struct CallFrames {
  std::uintptr_t pc[kMaxCallFrames];
  int n = 0;
};

// The load bias and the extent of the loaded executable segments of the image that holds the
// kernel: the candidate's shared object once the launcher has loaded it (set_kernel_image), else the
// main program (a test runtime that links the kernel into its executable).
struct MainImage {
  std::uintptr_t bias = 0;
  std::uintptr_t lo = ~std::uintptr_t{0};
  std::uintptr_t hi = 0;
};

inline void add_segments(struct dl_phdr_info* info, MainImage* img) {
  img->bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (start < img->lo) img->lo = start;
    if (start + ph.p_memsz > img->hi) img->hi = start + ph.p_memsz;
  }
}

inline int main_image_cb(struct dl_phdr_info* info, std::size_t, void* arg) {
  add_segments(info, static_cast<MainImage*>(arg));
  return 1;   // the first object dl_iterate_phdr reports is the main program
}

inline MainImage& kernel_image_slot() {
  static MainImage img;
  return img;
}

struct ImageQuery {
  std::uintptr_t base;
  MainImage* img;
};

inline int kernel_image_cb(struct dl_phdr_info* info, std::size_t, void* arg) {
  auto* q = static_cast<ImageQuery*>(arg);
  if (info->dlpi_addr != q->base) return 0;
  add_segments(info, q->img);
  return 1;
}

// The image of the shared object whose load bias is `base` (the link_map's l_addr of the launcher's
// dlopen handle) holds the kernel from now on.
inline void set_kernel_image(std::uintptr_t base) {
  MainImage found;
  ImageQuery q{base, &found};
  if (dl_iterate_phdr(kernel_image_cb, &q) != 0 && found.hi > found.lo) kernel_image_slot() = found;
}

inline const MainImage& main_image() {
  static const MainImage img = [] {
    MainImage m;
    dl_iterate_phdr(main_image_cb, &m);
    return m;
  }();
  const MainImage& k = kernel_image_slot();
  return k.hi > k.lo ? k : img;
}

inline _Unwind_Reason_Code collect_frame(struct _Unwind_Context* ctx, void* arg) {
  auto* f = static_cast<CallFrames*>(arg);
  if (f->n >= kMaxCallFrames) return _URC_END_OF_STACK;
  int before = 0;
  const std::uintptr_t ip = _Unwind_GetIPInfo(ctx, &before);
  if (ip == 0) return _URC_END_OF_STACK;
  // A return address points after its call: one byte back lies inside the call (and its source line).
  f->pc[f->n++] = before ? ip : ip - 1;
  return _URC_NO_REASON;
}

// The token of the calling thread's stack: the offsets of its frames inside the kernel's image.
inline std::string call_site_token() {
  CallFrames f;
  _Unwind_Backtrace(collect_frame, &f);
  const MainImage& img = main_image();
  static const char kHex[] = "0123456789abcdef";
  std::string out = kCallSiteOpen;
  bool first = true;
  for (int i = 0; i < f.n; ++i) {
    if (f.pc[i] < img.lo || f.pc[i] >= img.hi) continue;
    std::uintptr_t off = f.pc[i] - img.bias;
    char buf[2 * sizeof(off) + 1];
    int k = static_cast<int>(sizeof(buf)) - 1;
    buf[k] = '\0';
    do {
      buf[--k] = kHex[off & 15u];
      off >>= 4;
    } while (off != 0 && k > 0);
    if (!first) out += ',';
    out += buf + k;
    first = false;
  }
  return out + kCallSiteClose;
}

}  // namespace rt
}  // namespace npukb

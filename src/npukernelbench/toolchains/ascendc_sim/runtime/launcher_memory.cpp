// launcher_memory.cpp -- the launcher's memory: GM buffers (each its own mapping, ending at a guard
// page), the poison of outputs, workspace and on-chip memory, a block's on-chip memory, and the
// kernel-side GM checks (runtime.h). Part of the ascendc-sim clean-room simulator (launcher_internal.h
// lists the launcher's files).
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "launcher_internal.h"

namespace npukb {
namespace launcher {

// ---------------------------------------------------------------------------------------------
// GM: every tensor is its own mapping, placed so that its (512-byte rounded) end touches a guard page.

std::vector<Region> g_regions;          // sorted by start after setup
std::size_t g_page = 4096;
std::uint8_t* g_workspace = nullptr;   // the launch's workspace in GM (sys_workspace)

// Poison of outputs, workspace and on-chip memory. Seed 0: every byte 0xA5 (npukb::kPoisonByte).
// Any other seed: an 8-byte pattern derived from the seed (splitmix64) repeated from the start of
// each buffer, so a harness that runs a candidate twice with different seeds sees different values
// wherever the kernel reads memory it never wrote.
std::uint8_t g_poison[8] = {npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte,
                            npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte};

void set_poison_seed(std::int64_t seed) {
  if (seed == 0) return;
  std::uint64_t z = static_cast<std::uint64_t>(seed) + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  for (int i = 0; i < 8; ++i) g_poison[i] = static_cast<std::uint8_t>(z >> (8 * i));
}

void poison(std::uint8_t* p, std::size_t bytes) {
  std::size_t head = bytes < 8 ? bytes : 8;
  std::memcpy(p, g_poison, head);
  // Doubling copies: the filled prefix is a whole number of patterns.
  for (std::size_t done = head; done < bytes;) {
    std::size_t n = std::min(done, bytes - done);
    std::memcpy(p + done, p, n);
    done += n;
  }
}

std::uint8_t* gm_alloc(std::size_t bytes, const std::string& name) {
  std::size_t rounded = (bytes + 511) / 512 * 512;
  std::size_t data_pages = (rounded + g_page - 1) / g_page;
  std::size_t total = (data_pages + 1) * g_page;
  void* map = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    launch_error("cannot allocate " + std::to_string(bytes) + " bytes of GM for '" + name + "'");
  }
  std::uint8_t* base = static_cast<std::uint8_t*>(map);
  mprotect(base + data_pages * g_page, g_page, PROT_NONE);
  std::uint8_t* start = base + data_pages * g_page - rounded;
  poison(start, rounded);
  g_regions.push_back(Region{start, bytes, name});
  return start;
}

void sort_regions() {
  std::sort(g_regions.begin(), g_regions.end(),
            [](const Region& a, const Region& b) { return a.start < b.start; });
}

std::uint8_t* block_memory(BlockSlot& slot, std::size_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, 4096, bytes) != 0) {
    launch_error("cannot allocate " + std::to_string(bytes) + " bytes of on-chip memory for a block");
  }
  poison(static_cast<std::uint8_t*>(p), bytes);
  slot.memories.push_back(static_cast<std::uint8_t*>(p));
  return static_cast<std::uint8_t*>(p);
}

}  // namespace launcher

// ---------------------------------------------------------------------------------------------
// runtime.h

using namespace launcher;

// The GM ranges come from the guarded copy (guarded_state.h; same order as g_regions, which has the
// names): a kernel that overwrites the launcher's heap cannot widen what it may touch. The limits of
// an access (rt::gm_limit: reads to the 512-byte allocation granule, writes to the last 32-byte
// block) are the same for the API checks and for raw pointer accesses.

// Index of the GM range starting exactly at `start`, -1 when none.
int range_starting_at(const void* start) {
  const auto p = reinterpret_cast<std::uintptr_t>(start);
  const rt::GmRange* first = rt::g_guard.gm;
  const rt::GmRange* last = first + rt::g_guard.gm_count;
  const rt::GmRange* it = std::lower_bound(first, last, p, [](const rt::GmRange& r, std::uintptr_t a) { return r.start < a; });
  return it != last && it->start == p ? static_cast<int>(it - first) : -1;
}

const std::string& range_name(int i) {
  static const std::string unnamed = "?";
  return i >= 0 && i < static_cast<int>(g_regions.size()) ? g_regions[static_cast<std::size_t>(i)].name : unnamed;
}

const void* gm_home(const void* addr) {
  const auto p = reinterpret_cast<std::uintptr_t>(addr);
  const rt::GmRange* first = rt::g_guard.gm;
  const rt::GmRange* last = first + rt::g_guard.gm_count;
  const rt::GmRange* it = std::upper_bound(first, last, p, [](std::uintptr_t a, const rt::GmRange& r) { return a < r.start; });
  if (it == first) return nullptr;
  const rt::GmRange& r = *(it - 1);
  return p - r.start < std::max<std::size_t>(rt::gm_limit(r.size, true), 1) ? reinterpret_cast<const void*>(r.start)
                                                                           : nullptr;
}

void check_gm_home(const void* home, const void* addr, std::size_t bytes, bool write, const char* api, const char* file,
                   int line) {
  const int i = home != nullptr ? range_starting_at(home) : -1;
  if (i < 0) return check_gm(addr, bytes, write, api, file, line);
  const rt::GmRange& r = rt::g_guard.gm[i];
  const auto p = reinterpret_cast<std::uintptr_t>(addr);
  const char* verb = write ? "write" : "read";
  if (p < r.start) {
    violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes starts " +
                       std::to_string(r.start - p) + " bytes before '" + range_name(i) + "'", file, line);
  }
  const std::size_t off = p - r.start, limit = rt::gm_limit(r.size, write);
  if (off <= limit && bytes <= limit - off) return;
  violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at byte offset " +
                     std::to_string(off) + " of '" + range_name(i) + "' runs past its end (" + std::to_string(r.size) +
                     " bytes)", file, line);
}

void check_gm(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  int near = -1;
  if (rt::find_gm_range(a, bytes, write, &near) >= 0) return;
  const char* verb = write ? "write" : "read";
  if (near >= 0) {
    const rt::GmRange& r = rt::g_guard.gm[near];
    if (a >= r.start) {
      violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at byte offset " +
                         std::to_string(a - r.start) + " of '" + range_name(near) + "' runs past its end (" +
                         std::to_string(r.size) + " bytes)", file, line);
    }
    violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes starts " +
                       std::to_string(r.start - a) + " bytes before '" + range_name(near) + "'", file, line);
  }
  violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) +
                     " bytes at an address outside every tensor handed to the kernel", file, line);
}
std::uint8_t* sys_workspace() { return g_workspace; }
}  // namespace npukb

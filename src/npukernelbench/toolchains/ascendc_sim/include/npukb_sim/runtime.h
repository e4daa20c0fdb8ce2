// npukb_sim/runtime.h -- the contract between the kernel-side API headers (kernel_operator.h and
// friends) and the launcher (runtime/launcher.cpp). Clean-room: part of the ascendc-sim simulator.
//
// The launcher owns blocks, threads, GM buffers and error reporting; the kernel-side headers own
// the API semantics and the cost model. Kernel code runs one block per thread; the launcher
// schedules them cooperatively (one runs at a time, switching only at SyncAll / cross-core waits),
// so every run is deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// Functions of the simulator's value types (bfloat16_t) act on memory as the caller does: they do not
// mark simulator code (raw-access costing), so `z[i] = x[i] + y[i]` on raw bfloat16_t pointers costs
// the kernel's scalar accesses like on built-in types.
#define NPUKB_VALUE_FN __attribute__((no_instrument_function))

namespace npukb {

// Hardware figures of the simulated Ascend 910B (DESIGN.md section 3).
constexpr std::size_t kUbBytes = 196608;
constexpr std::size_t kL1Bytes = 524288;
constexpr std::size_t kL0aBytes = 65536;
constexpr std::size_t kL0bBytes = 65536;
constexpr std::size_t kL0cBytes = 131072;
constexpr int kVectorCores = 48;
constexpr int kCubeCores = 24;
constexpr double kClockGhz = 1.85;
constexpr double kHbmGBs = 1600.0;           // aggregate HBM bandwidth (GB/s == bytes/ns)
constexpr unsigned char kPoisonByte = 0xA5;   // fill of fresh UB/L1 and of output buffers

// Pipes of the cost model (cycle clocks kept per block).
enum PipeId : int { PIPE_ID_S = 0, PIPE_ID_V, PIPE_ID_MTE2, PIPE_ID_MTE3, PIPE_ID_MTE1, PIPE_ID_M,
                    PIPE_ID_FIX, PIPE_ID_COUNT };

// Bytes reserved in every BlockState for the kernel-side API state (npukb::kern::KState: mask
// register, clocks, UB readiness); state.h checks that KState fits.
constexpr std::size_t kApiStateBytes = 512 * 1024;

// Per-block state, one per running block (thread). Owned by the launcher, which keeps it in memory
// the kernel cannot write (docs/security.md): its own instrumented stores there are a violation.
struct BlockState {
  int block_idx = 0;
  int block_num = 1;
  int sub_block_idx = 0;          // AIV index inside its AI core (0 or 1)
  int sub_block_num = 1;
  std::uint8_t* ub = nullptr;     // kUbBytes, poisoned before launch
  std::uint8_t* l1 = nullptr;     // kL1Bytes
  std::uint8_t* l0a = nullptr;
  std::uint8_t* l0b = nullptr;
  std::uint8_t* l0c = nullptr;
  // Cost model results (written by the kernel-side cost model, read by the launcher at the end).
  double pipe_cycles[PIPE_ID_COUNT] = {};   // busy cycles per pipe (for the breakdown)
  double finish_cycles = 0.0;               // estimated cycle at which the block finished
  std::uint64_t gm_read_bytes = 0;
  std::uint64_t gm_write_bytes = 0;
  std::uint64_t raw_gm_accesses = 0;        // the kernel's own loads/stores through raw GM pointers
  std::uint64_t raw_ub_accesses = 0;        // ... and through raw on-chip (UB/L1/L0) pointers
  void* api_state = nullptr;      // the kernel-side headers' state, placed in api_storage by state.h
  alignas(64) unsigned char api_storage[kApiStateBytes];
};

// Memory spaces of a raw access (see npukb_kernel_raw_access).
enum RawSpace : int { RAW_GM = 0, RAW_UB = 1, RAW_ONCHIP = 2 };

// The block running on this thread.
BlockState& block();

// Stop the whole run: a hardware-illegal action. Reported with the API name, the block index and
// the kernel source location. Never returns.
[[noreturn]] void violation(const char* api, const std::string& what, const char* file = __builtin_FILE(),
                            int line = __builtin_LINE());

// Check that [addr, addr + bytes) lies inside one GM tensor handed to the kernel (inputs, outputs,
// workspace, tiling). Calls violation() otherwise.
void check_gm(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line);

// Barrier across all blocks of the launch (SyncAll). Blocks that already finished count as arrived
// only if every live block reaches the barrier; a barrier no block can pass is a hang (violation).
void sync_all(const char* file, int line);

// Cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag): a counter per flag id per group of cores.
void cross_core_set_flag(int mode, int flag_id);
void cross_core_wait_flag(int flag_id, const char* file, int line);

// Workspace handed to the kernel: system part (GetSysWorkSpacePtr) and user part.
std::uint8_t* sys_workspace();

// Kernel printf goes through here (prefixed with the block index, size-limited).
void kernel_log(const std::string& text);

}  // namespace npukb

// Raw-access costing (docs/cost-model.md): the kernel TU is compiled with memory-access
// instrumentation; the runtime classifies every load/store the kernel's own code makes and hands
// those into GM (space RAW_GM, offset 0) or on-chip memory (RAW_UB / RAW_ONCHIP, byte offset in
// that buffer) to this function, which the kernel-side headers define (raw_access.h) so that the
// access is costed like GetValue/SetValue on the same memory.
extern "C" void npukb_kernel_raw_access(int space, std::uint64_t offset, std::uint64_t bytes, int write)
    __attribute__((weak));

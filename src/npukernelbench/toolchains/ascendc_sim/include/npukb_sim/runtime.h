// npukb_sim/runtime.h -- the contract between the kernel-side API headers (kernel_operator.h and
// friends) and the launcher (runtime/launcher*.cpp). Clean-room: part of the ascendc-sim simulator.
//
// The launcher owns blocks, threads, GM buffers and error reporting; the kernel-side headers own
// the API semantics and the cost model. Kernel code runs one block per thread; the launcher
// schedules them cooperatively (one runs at a time, switching only at SyncAll / cross-core waits),
// so every run is deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "npukb_sim/soc.h"

// Functions of the simulator's value types (bfloat16_t) act on memory as the caller does: they do not
// mark simulator code (raw-access costing), so `z[i] = x[i] + y[i]` on raw bfloat16_t pointers costs
// the kernel's scalar accesses like on built-in types.
#define NPUKB_VALUE_FN __attribute__((no_instrument_function))

namespace npukb {

// Hardware figures of the simulated Ascend 910B (docs/cost-model.md, "Hardware figures").
constexpr std::size_t kUbBytes = 196608;
constexpr std::size_t kL1Bytes = 524288;
constexpr std::size_t kL0aBytes = 65536;
constexpr std::size_t kL0bBytes = 65536;
constexpr std::size_t kL0cBytes = 131072;
constexpr std::size_t kBiasTableBytes = 1024;    // BT (TPosition::C2), per AI cube core
constexpr std::size_t kFixBufBytes = 4096;       // FB (TPosition::C2PIPE2GM), per AI cube core (simulator choice)
// Core counts are not constants: they come from the run's SoC profile (soc_info() below). These are the
// default profile's (Ascend910B3), for a program that runs without a request (the CPU twin).
constexpr int kDefaultVectorCores = 40;
constexpr int kDefaultCubeCores = 20;
constexpr double kClockGhz = 1.85;
constexpr double kHbmGBs = 1600.0;           // aggregate HBM bandwidth (GB/s == bytes/ns)
constexpr unsigned char kPoisonByte = 0xA5;   // fill of fresh UB/L1 and of output buffers

// Pipes of the cost model (cycle clocks kept per block).
enum PipeId : int { PIPE_ID_S = 0, PIPE_ID_V, PIPE_ID_MTE2, PIPE_ID_MTE3, PIPE_ID_MTE1, PIPE_ID_M,
                    PIPE_ID_FIX, PIPE_ID_COUNT };

// Which kind of core a block runs on. A mixed kernel (KERNEL_TYPE_MIX_AIC_1_2) runs blockDim AI
// cube cores (AIC) and 2 x blockDim AI vector cores (AIV); see docs/simulator.md.
enum CoreType : int { CORE_AIC = 1, CORE_AIV = 2 };   // the values of AscendC::AIC / AscendC::AIV

// Bytes reserved in every BlockState for the kernel-side API state (npukb::kern::KState: mask
// register, clocks, UB readiness) and for the cube path's L1/L0 dataflow clocks (CubeCostState);
// state.h and cube_cost.h check that they fit.
constexpr std::size_t kApiStateBytes = 512 * 1024;
constexpr std::size_t kCubeStateBytes = 32 * 1024;

// Per-block state, one per running block (thread). Owned by the launcher, which keeps it in memory
// the kernel cannot write (docs/security.md): its own instrumented stores there are a violation.
struct BlockState {
  int block_idx = 0;              // GetBlockIdx(): AIV of a mixed kernel: core_idx * 2 + sub_block_idx
  int block_num = 1;              // GetBlockNum(): the launch's blockDim
  int sub_block_idx = 0;          // AIV index inside its AI core (0 or 1)
  int sub_block_num = 1;
  int core_type = CORE_AIV;
  int core_idx = 0;               // the AI core (AIC + its AIVs) this block belongs to
  int kernel_type = 0;            // KernelMetaType of the launch (npukb_sim/tiling_kernel.h)
  std::uint8_t* ub = nullptr;     // kUbBytes, poisoned before launch
  std::uint8_t* l1 = nullptr;     // kL1Bytes
  std::uint8_t* l0a = nullptr;
  std::uint8_t* l0b = nullptr;
  std::uint8_t* l0c = nullptr;
  std::uint8_t* bt = nullptr;     // kBiasTableBytes (AIC only)
  std::uint8_t* fb = nullptr;     // kFixBufBytes (AIC only)
  // Cost model results (written by the kernel-side cost model, read by the launcher at the end).
  double pipe_cycles[PIPE_ID_COUNT] = {};   // busy cycles per pipe (for the breakdown)
  double finish_cycles = 0.0;               // estimated cycle at which the block finished
  std::uint64_t gm_read_bytes = 0;
  std::uint64_t gm_write_bytes = 0;
  std::uint64_t raw_gm_accesses = 0;        // the kernel's own loads/stores through raw GM pointers
  std::uint64_t raw_ub_accesses = 0;        // ... and through raw on-chip (UB/L1/L0/BT/FB) pointers
  std::uint64_t raw_local_accesses = 0;     // ... and into its own memory (stack, local arrays, globals)
  std::uint64_t scalar_blocks = 0;          // basic blocks of the kernel's own code executed
  double server_until = 0.0;      // AIC of a mixed launch: when the Matmul work its AIVs requested ends
  void* api_state = nullptr;      // the kernel-side headers' state, placed in api_storage by state.h
  void* cube_state = nullptr;     // the cube-path headers' state, placed in cube_storage by cube_cost.h
  alignas(64) unsigned char api_storage[kApiStateBytes];
  alignas(64) unsigned char cube_storage[kCubeStateBytes];
};

// Memory spaces of a raw access (see npukb_kernel_raw_access).
enum RawSpace : int { RAW_GM = 0, RAW_UB = 1, RAW_ONCHIP = 2, RAW_LOCAL = 3 };

// The block running on this thread.
BlockState& block();

// Source locations. The kernel-side API has the real signatures: no (file, line) parameters. Every
// report below takes a location: file == nullptr means "the kernel line that called the API", which the
// runtime finds from the call stack (runtime/call_site.h: return addresses, symbolised after the run with
// the kernel's line tables); "" means none; any other file names a fixed location. A function body that
// forwards the pair declares it with NPUKB_CALLER (the call site).
#define NPUKB_CALLER [[maybe_unused]] const char* const file = nullptr; [[maybe_unused]] const int line = 0

// Stop the whole run: a hardware-illegal action. Reported with the API name, the block index and
// the kernel source location. Never returns.
[[noreturn]] void violation(const char* api, const std::string& what, const char* file, int line);

// Something the hardware does without complaint but a careful kernel avoids (an access that runs past
// its LocalTensor into other unified-buffer bytes): recorded once per source location in result.json's
// kernel_warnings, and the run goes on with the hardware's result.
void warning(const char* api, const std::string& what, const char* file, int line);

// Check that [addr, addr + bytes) lies inside one GM tensor handed to the kernel (inputs, outputs,
// workspace, tiling). Calls violation() otherwise.
void check_gm(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line);
// An access may run past a tensor's end up to the end of its last 32-byte block (DMA moves whole blocks
// and device allocations are 512-byte aligned: those bytes are the allocation's padding).

// The start of the GM tensor that contains addr, or nullptr. A GlobalTensor binds to it in
// SetGlobalBuffer, so that its accesses are checked against its own tensor (check_gm_home) even when an
// out-of-range address happens to fall into another tensor.
const void* gm_home(const void* addr);
void check_gm_home(const void* home, const void* addr, std::size_t bytes, bool write, const char* api,
                   const char* file, int line);

// Barrier (SyncAll) across the blocks of the launch, or only those of the caller's core type
// (SyncAll<true>, the default). A member that finished without reaching it, or a barrier no block can
// pass, is a hang (violation).
void sync_all(bool same_type_only, const char* file, int line);

// Inter-block protocols over GM (IBWait, the soft SyncAll, WaitPreBlock): the calling block waits until
// the 32-bit GM word at addr holds a value in [lo, hi], which another block writes (the device polls;
// here the block yields). A wait nobody can satisfy is a hang (violation) naming every waiting block.
void wait_gm(const volatile std::int32_t* addr, std::int32_t lo, std::int32_t hi, const char* api, const char* file,
             int line);

// Cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag): a counter per flag id per core; see
// docs/simulator.md for modes 0 (all cores of one type), 1 (the two AIVs of one AI core) and 2 (AIC <->
// its two AIVs). A wait nobody can satisfy is reported as a hang (violation) naming every waiting core.
// `time` is the setter's cost-model clock; a wait returns the latest time among the sets it consumed.
void cross_core_set_flag(int mode, int flag_id, double time, const char* file, int line);
double cross_core_wait_flag(int flag_id, const char* file, int line);

// Blocks the calling block until `ready()` holds (the cube group management API: message queues and
// GroupBarrier, which poll GM on the device). The scheduler evaluates `ready` whenever the running block
// stops, every block paused; with `yield` the caller first lets the other runnable blocks run even when
// `ready()` already holds (a polling query). A wait no block can end is a hang naming `what`.
void wait_for(const std::function<bool()>& ready, const std::string& what, const char* file, int line,
              bool yield = false);

// On-chip memory a block's core type does not have (UB on a cube core, L1/L0/BT/FB on a vector core)
// is allocated (poisoned) on first use: TPipe::InitBuffer is bookkeeping, and kernel libraries set up
// every buffer on both core types. Instructions that need the other core's unit are checked where
// they execute. Returns *slot after allocating `bytes` into it when it was null.
std::uint8_t* lazy_buffer(std::uint8_t** slot, std::size_t bytes);

// The cube core (AIC) of the calling vector core's AI core in a mixed launch, else nullptr. The Matmul
// high-level API driven from a vector core charges its cube work to it.
BlockState* cube_partner();

// SIGFPE of an integer division in a kernel block: completes the division as the device does (no
// trap) and returns true, or false when the faulting instruction is not one it handles.
bool resume_division(void* ucontext);

// Workspace handed to the kernel: system part (GetSysWorkSpacePtr) and user part.
std::uint8_t* sys_workspace();

// Kernel printf goes through here (prefixed with the block index, size-limited).
void kernel_log(const std::string& text);

}  // namespace npukb

// Raw-access costing (docs/cost-model.md): the kernel TU is compiled with memory-access
// instrumentation; the runtime classifies every load/store the kernel's own code makes and hands
// those into GM (space RAW_GM, offset 0), on-chip memory (RAW_UB / RAW_ONCHIP, byte offset in that
// buffer) or the kernel's own memory (RAW_LOCAL: its stack, local arrays, globals) to this function,
// which the kernel-side headers define (raw_access.h) so that the access is costed like
// GetValue/SetValue on the same memory (a scalar access to the kernel's own memory).
extern "C" void npukb_kernel_raw_access(int space, std::uint64_t offset, std::uint64_t bytes, int write)
    __attribute__((weak));
// Scalar-code costing: every basic block of the kernel's own code that runs is handed to this function
// (kernel side, raw_access.h), which costs it on the scalar unit (docs/cost-model.md, "Scalar code");
// -1 takes back the block just costed when it turns out to be the entry block of a simulator function.
extern "C" void npukb_kernel_scalar_block(int blocks) __attribute__((weak));

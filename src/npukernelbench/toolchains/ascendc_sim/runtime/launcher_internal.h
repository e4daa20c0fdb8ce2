// launcher_internal.h -- runtime-internal: what the launcher's translation units share (launcher.cpp and
// launcher_*.cpp). Part of the ascendc-sim clean-room simulator; never included by kernel or host code.
//
// Everything here lives in npukb::launcher with hidden visibility, and the runtime build leaves that
// namespace out of the names the launcher exports to the candidate's shared object (builder.py,
// sources.RUNTIME_INTERNAL_PREFIXES): the candidate sees the same runtime API as before the split.
//
//   launcher.cpp            main(): describe and run, the order of a run's steps, the phase times
//   launcher_io.cpp         request.txt, result.json, the kernel's warnings, violations and log
//   launcher_memory.cpp     GM buffers, poison, on-chip memory, the kernel-side GM checks
//   launcher_scheduler.cpp  blocks and the cooperative scheduler, SyncAll, cross-core flags, waits
//   launcher_crash.cpp      crash reporting (signal handlers)
//   launcher_boundary.cpp   confinement, loading the candidate, the thread census
//   launcher_opdef.cpp      OpDef checks, attributes in OpDef order
//   launcher_describe.cpp   `launcher describe`: tiling classes and OpDefs of a host-only build
//   launcher_infer.cpp      InferShape / InferDataType, checked in a helper process
//   launcher_steps.cpp      the host-API steps of a run (Launch): OpDef, tiling, memory, blocks, outputs
//   launcher_cost.cpp       the cost estimate
#pragma once
#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "guarded_state.h"
#include "npukb_sim/runtime.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "register/op_config_registry.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

#pragma GCC visibility push(hidden)

namespace npukb {
namespace launcher {

// The kernel trampolines generated into the kernel TU (absent from a describe build), looked up in the
// candidate's shared object once it is loaded: the vector (AIV) pass, the cube (AIC) pass of a kernel
// that uses the cube unit, and the kernel type the build inferred (KERNEL_TASK_TYPE_DEFAULT /
// KERNEL_TASK_TYPE or the APIs used; see kernel_passes.py).
using EntryFn = void (*)(std::uint8_t**);
using KernelTypeFn = int (*)(std::uint64_t);

constexpr int kExitViolation = 3;
constexpr int kExitLaunch = 4;
constexpr int kExitRequest = 2;
constexpr std::size_t kTilingCapacity = 64 * 1024;      // raw tiling buffer handed to TilingFunc
constexpr std::size_t kLogLimit = 64 * 1024;            // kernel printf bytes kept
constexpr double kLaunchOverheadUs = 3.0;               // fixed kernel launch cost of the estimate
constexpr double kHbmBytesPerUs = npukb::kHbmGBs * 1e3;  // 1.6 TB/s
constexpr std::size_t kBlockStackBytes = 16u << 20;
constexpr uint32_t kMaxLogicalBlocks = 256;   // logical blocks of a vector kernel (simulator limit)

// ---------------------------------------------------------------------------------------------
// Request and result I/O (launcher_io.cpp)

extern std::string g_out_dir;
extern std::string g_log;
extern bool g_log_truncated;
extern std::mutex g_log_mutex;
extern std::vector<std::pair<std::string, std::string>> g_result;   // result.json fields, in order
constexpr std::size_t kMaxWarnings = 20;
extern std::mutex g_warn_mutex;
extern std::vector<std::string> g_warnings;
extern std::vector<std::string> g_warned_at;
extern bool g_infer_child;              // the InferShape helper process: it reports through its pipe only

struct TensorReq {
  std::vector<int64_t> shape;
  std::string file;              // input data file ("-" for outputs)
  std::size_t bytes = 0;
  std::uint8_t* gm = nullptr;
};

struct ParamReq {
  std::string role;              // input | output
  std::string name;
  std::string ptype;             // REQUIRED | OPTIONAL | DYNAMIC
  std::string dtype;             // spec name
  ge::DataType ge = ge::DT_UNDEFINED;
  std::size_t itemsize = 0;
  bool absent = false;
  std::string alias;             // output: input whose buffer it shares
  std::vector<TensorReq> tensors;
  std::uint8_t* arg = nullptr;   // what the kernel receives
};

struct AttrReq {
  std::string name;
  std::string type;              // float int bool str list_int list_float list_bool
  std::vector<std::string> values;
};

struct Request {
  std::string op;
  std::vector<ParamReq> params;
  std::vector<AttrReq> attrs;
  std::int64_t poison_seed = 0;
};

std::string json_str(const std::string& s);
std::string json_num(double v);
void result_set(const std::string& key, const std::string& raw_json);
void write_result();
[[noreturn]] void fail(int code, const std::string& status, const std::string& message);
[[noreturn]] void launch_error(const std::string& message);
[[noreturn]] void request_error(const std::string& message);
ge::DataType parse_ge(const std::string& name);
std::string ge_name(ge::DataType dt);
std::string unhex(const std::string& hex);
Request read_request(const std::string& path);
void read_file_into(const std::string& path, std::uint8_t* dst, std::size_t bytes);
// Whether the file at path holds exactly these bytes (read a chunk at a time).
bool file_holds(const std::string& path, const std::uint8_t* data, std::size_t bytes);
void write_file(const std::string& path, const std::uint8_t* src, std::size_t bytes);

// ---------------------------------------------------------------------------------------------
// Memory (launcher_memory.cpp)

struct Region {
  std::uint8_t* start;
  std::size_t size;
  std::string name;
};

extern std::vector<Region> g_regions;   // sorted by start after setup
extern std::size_t g_page;
extern std::uint8_t g_poison[8];
extern std::uint8_t* g_workspace;

void set_poison_seed(std::int64_t seed);
void poison(std::uint8_t* p, std::size_t bytes);
std::uint8_t* gm_alloc(std::size_t bytes, const std::string& name);
void sort_regions();

// ---------------------------------------------------------------------------------------------
// Blocks and the cooperative scheduler (launcher_scheduler.cpp)

enum class BlockRun { READY, RUNNING, BARRIER, WAIT_FLAG, WAIT_GM, WAIT_COND, DONE };

constexpr int kFlagIds = 16;             // CrossCoreSetFlag flag ids 0..15
constexpr int kFlagCounterMax = 15;      // a flag counter holds at most 15 pending sets

// KernelMetaType values (npukb_sim/tiling_kernel.h).
enum KernelType : int { K_AIV_ONLY = 0, K_AIC_ONLY, K_MIX_AIV_1_0, K_MIX_AIC_1_0, K_MIX_AIC_1_1, K_MIX_AIC_1_2,
                        K_AICORE, K_VECTORCORE, K_MIX_AICORE, K_MIX_VECTOR_CORE };

struct BlockSlot {
  npukb::BlockState* state = nullptr;   // in the private mapping (guarded_state.h)
  BlockRun run = BlockRun::READY;
  std::string wait_where;       // file:line of the SyncAll / wait it blocks in
  int wait_flag = -1;
  const volatile std::int32_t* wait_addr = nullptr;   // WAIT_GM: a GM word the block polls ...
  std::int32_t wait_lo = 0, wait_hi = 0;              // ... until it lies in [wait_lo, wait_hi]
  const char* wait_api = "";
  std::function<bool()> wait_cond;   // WAIT_COND: runnable again once it holds (wait_for)
  std::string wait_what;
  int barrier_group = 0;        // SyncAll: 0 every core, 1 the cores of this block's type
  std::deque<double> flag_sem[kFlagIds];              // delivered, not yet consumed flags (their times)
  std::deque<double> flag_pending[3][kFlagIds];       // sets waiting for the rest of their group, per mode
  std::vector<std::uint8_t*> memories;
  pthread_t thread{};
};

extern std::vector<BlockSlot> g_blocks;
extern std::mutex g_sched_mutex;
extern std::condition_variable g_sched_cv;
extern int g_current;                   // block allowed to run; -2 when all finished
extern bool g_started;
extern std::uint8_t** g_args;
extern npukb::BlockState g_host_state;  // what block() returns outside kernel threads
extern int g_kernel_type;
extern bool g_mixed;                    // AIC and AIV blocks in one launch
extern bool g_waves;                    // more vector blocks than vector cores: they run in waves
extern int g_aiv_per_core;
extern std::atomic<int>& g_running_block;
extern std::uint64_t g_tiling_key;

std::string where(const char* file, int line);
std::string block_name(int b);
void schedule_next_locked(int from);
void wait_turn_locked(std::unique_lock<std::mutex>& lk, int b);
std::uint8_t* block_memory(BlockSlot& slot, std::size_t bytes);
void* block_main(void* arg);

// ---------------------------------------------------------------------------------------------
// Crash reporting (launcher_crash.cpp)

extern const char* g_phase;             // the host step running now, for crash reports
void install_crash_handlers();

// ---------------------------------------------------------------------------------------------
// The boundary (launcher_boundary.cpp)

extern EntryFn npukb_entry;
extern EntryFn npukb_entry_aic;
extern KernelTypeFn npukb_kernel_type;
extern int g_phase_fd;                  // the harness's phase channel, until the candidate's code is loaded
extern int g_census_fd;                 // /proc/self/stat, opened before the boundary: the thread count
extern void* g_candidate;               // dlopen handle of the candidate's shared object

void phase_report(const std::string& line);
[[noreturn]] void boundary_failure(const std::string& why);
std::string enter_boundary(const std::string& dir, bool writable, const std::string& so_path,
                           std::initializer_list<int> keep);
void load_candidate(const std::string& so_path);
void census(int expected, const char* when);

// ---------------------------------------------------------------------------------------------
// OpDef checks and attributes (launcher_opdef.cpp)

std::string option_name(ops::Option o);
bool config_910b(const ops::OpDef& def, const ops::OpAICoreConfig** cfg);
std::size_t check_params(const ops::OpDef& def, const std::vector<ParamReq>& params);
void fill_init_value(std::uint8_t* gm, std::size_t bytes, const ops::ScalarVar& v);
void append_attr(gert::RuntimeAttrs& attrs, const ops::OpAttrDef& decl, const AttrReq* given);

// ---------------------------------------------------------------------------------------------
// `launcher describe` (launcher_describe.cpp)

int describe();

// ---------------------------------------------------------------------------------------------
// InferShape / InferDataType (launcher_infer.cpp)

extern int g_infer_fd;                  // read end of the helper's findings
std::string infer_findings(ops::InferShapeKernelFunc shape_fn, ops::InferDataTypeKernelFunc dtype_fn,
                           const gert::NpukbIoTable& io, const Request& req);
std::vector<std::string> infer_warnings(ops::InferShapeKernelFunc shape_fn, ops::InferDataTypeKernelFunc dtype_fn,
                                        const Request& req);
void start_infer_child(const std::string& dir, const std::string& so_path, const std::function<std::string()>& steps);

// ---------------------------------------------------------------------------------------------
// Run: `<exe> run <dir>` as a sequence of steps over one Launch. A step that finds a problem ends
// the process (request_error / launch_error write result.json and exit), so every step may rely on
// the earlier ones having succeeded.

struct Launch {
  // Members in the order the steps fill them; all live until run() returns (the kernel reads args,
  // the host functions' io points into host_data and their contexts to platform and compile_info).
  std::string dir;
  Request req;
  std::unique_ptr<ops::OpDef> def;
  gert::NpukbIoTable io;
  std::vector<std::vector<std::uint8_t>> host_data;   // data of the ValueDepend inputs
  const gert::NpukbOpImpl* impl = nullptr;            // what IMPL_OP_* registered for the op, if anything
  ops::InferShapeKernelFunc infer_shape_fn = nullptr;
  ops::InferDataTypeKernelFunc infer_dtype_fn = nullptr;
  ops::TilingKernelFunc tiling_fn = nullptr;
  fe::PlatFormInfos platform;
  std::unique_ptr<void, void (*)(void*)> compile_info{nullptr, [](void*) {}};
  std::vector<std::uint8_t> tiling_buf;
  std::size_t tiling_bytes = 0;                       // what TilingFunc wrote into tiling_buf
  uint32_t block_dim = 0;
  std::size_t workspace_bytes = 0;
  bool needs_aic = false, needs_aiv = false;          // the passes (cube, vector) the kernel type runs
  std::vector<std::uint8_t*> args;                    // the kernel's arguments (g_args)
  uint32_t n_aic = 0, n_aiv = 0;                      // blocks per core type
  std::size_t column = 0;                             // the OpDef's DataType column of the case

  explicit Launch(const std::string& run_dir) : dir(run_dir) {}

  void parse_request();
  void check_entries();
  void check_opdef();
  void describe_tensors();
  void load_value_depend_inputs();
  void describe_attrs();
  void find_host_functions();
  void check_inference();
  void run_tiling_parse();
  void run_tiling();
  void choose_cores();
  void record_tiling();
  void allocate_memory();
  void set_up_blocks();
  void schedule_blocks();
  void write_outputs();
  void estimate_cost();
  void finish();
};

}  // namespace launcher
}  // namespace npukb

#pragma GCC visibility pop

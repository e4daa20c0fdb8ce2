// npukb_sim/kernel/cube_group.h -- Cube group management (Atlas A2): KfcWorkspace, CubeResGroupHandle,
// CreateCubeResGroup and GroupBarrier. Clean-room part of ascendc-sim, written from the public API
// documentation; the layout below is the simulator's reading of it (docs/simulator.md).
//
// A group is blockSize / 2 AI cores (AICs blockStart / 2 ...) serving msgQueueSize message queues, one
// per vector core (AIV) that binds it with AssignQueue. Queue q belongs to AIC g = q / P of the group,
// P = ceil(msgQueueSize / (blockSize / 2)); the last AIC gets the rest (n_g queues). Every AIC has
// its own message area in GM: 4 rows (the queue depth) of n_g messages, row r holding message r of
// each of its queues, so that `msg + i` in a callback is the same-row message of the next queue
// (what SetSkipMsg and the fake messages of the merge case rely on). The group's area is
// 4 x msgQueueSize x sizeof(CubeMsgType) bytes from the KfcWorkspace's current address;
// CreateCubeResGroup moves that address past it. A message's state is its first byte
// (CubeGroupMsgHead::msgState, FREE = 0), so the area must be cleared before the launch uses it.
//
// The AIC side of CreateCubeResGroup runs the server: CallBack::Init, then it walks the rows in order
// (message by message, skipping the queues that quit), waits for each message to leave FREE, and
// hands VALID ones to CallBack::Call (which frees them with FreeMessage and may skip the next ones with
// SetSkipMsg); QUIT retires the queue, a FAKE message nobody skipped is freed. It returns once every
// queue of the AIC quit. The AIV-side calls (AssignQueue, AllocMessage, PostMessage, PostFakeMsg,
// SetQuit, Wait) do nothing on a cube core; the AIC-side ones (FreeMessage, SetSkipMsg) are refused
// on a vector core.
//
// Waits poll GM on the device; here they block in the launcher's scheduler (npukb::wait_for), so a
// wait nothing can end is reported as a hang. A message carries the poster's clock to the AIC
// (the scalar pipe, or MTE3 in MTE3_MODE) and FreeMessage carries the AIC's clock, all pipes
// drained, back to Wait, like CrossCoreSetFlag / CrossCoreWaitFlag (no added latency).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <utility>

#include "npukb_sim/kernel/cube_cost.h"
#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/types.h"
#include "npukb_sim/runtime.h"

namespace AscendC {

enum class PipeMode : std::uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };
enum class CubeMsgState : std::uint8_t { FREE = 0, VALID, QUIT, FAKE };

struct CubeGroupMsgHead {
  CubeMsgState msgState;
  std::uint8_t aivID;
};
static_assert(sizeof(CubeGroupMsgHead) == 2, "CubeGroupMsgHead is 2 bytes");

// IsEqual<a, b>::Type is void when a == b (the documentation's callbacks select on funcID with it).
template <std::int32_t a, std::int32_t b>
struct IsEqual {};
template <std::int32_t a>
struct IsEqual<a, a> {
  using Type = void;
};

namespace sim {
namespace cube_group {

constexpr int kDepth = 4;                       // messages per queue
constexpr std::uint32_t kBarrierBlock = 512;    // GroupBarrier: one 512-byte block per Wait-group member
constexpr std::uint32_t kBarrierArriveAt = 32;  // ... its Arrive counters from here, 4 bytes each
constexpr std::uint32_t kBarrierMaxRounds = 1048575;

struct GroupRecord {
  int block_start, block_size, queues;
  std::uintptr_t area;
};

// Launch-wide bookkeeping (one launch per process). Like the launcher's pending cross-core flags it
// lives on the heap (docs/security.md).
struct Tables {
  std::map<std::uintptr_t, double> msg_time;       // message address -> clock of its last state change
  std::map<std::uintptr_t, bool> msg_served;       // a VALID message already handed to a callback
  std::map<int, GroupRecord> groups;               // groupID -> the group the blocks created
  std::map<std::pair<std::uintptr_t, int>, int> queue_owner;   // (area, queue) -> GetBlockIdx of its AIV
  std::map<std::pair<std::uintptr_t, std::uint32_t>, double> arrive_time;   // (counter, round) -> clock
};
inline Tables& tables() {
  static Tables t;
  return t;
}

inline bool on_aic() { return npukb::block().core_type == npukb::CORE_AIC; }
inline std::string num(long long v) { return std::to_string(v); }

inline double clock_of(int pipe) {
  npukb::kern::KState& s = npukb::kern::state();
  return std::max(s.issue, s.pipe[pipe]);
}
inline double clock_all() {
  npukb::kern::KState& s = npukb::kern::state();
  double t = s.issue;
  for (int p = 0; p < npukb::PIPE_ID_COUNT; ++p) t = std::max(t, s.pipe[p]);
  return t;
}
inline void advance_to(double t) {
  npukb::kern::KState& s = npukb::kern::state();
  s.issue = std::max(s.issue, t);
  s.pipe[npukb::PIPE_ID_S] = std::max(s.pipe[npukb::PIPE_ID_S], t);
  npukb::kern::publish(s);
}
inline double time_of(const void* p) {
  auto& m = tables().msg_time;
  auto it = m.find(reinterpret_cast<std::uintptr_t>(p));
  return it == m.end() ? 0.0 : it->second;
}

inline CubeMsgState state_of(const void* msg) {
  return static_cast<CubeMsgState>(*static_cast<const volatile std::uint8_t*>(msg));
}
inline void set_state(void* msg, CubeMsgState st, double t) {
  *static_cast<volatile std::uint8_t*>(msg) = static_cast<std::uint8_t>(st);
  tables().msg_time[reinterpret_cast<std::uintptr_t>(msg)] = t;
}
inline void check_state_byte(const char* api, const void* msg, const char* file, int line) {
  const std::uint8_t v = *static_cast<const volatile std::uint8_t*>(msg);
  if (v > static_cast<std::uint8_t>(CubeMsgState::FAKE)) {
    npukb::violation(api, "message state byte " + num(v) + " is no CubeMsgState: the message area was not cleared "
                     "(zero the KfcWorkspace's GM before the groups use it)", file, line);
  }
}

// The cube group API and REGIST_MATMUL_OBJ exclude each other (both run the AIC/AIV messaging).
inline void mark_group_api(const char* api, const char* file, int line) {
  npukb::kern::CubeRegs& r = npukb::kern::cube_regs();
  if (r.regist_matmul) {
    npukb::violation(api, "the cube group API cannot be used together with REGIST_MATMUL_OBJ", file, line);
  }
  r.cube_group = true;
}

inline void check_group_shape(const char* api, std::uint8_t blockStart, std::uint8_t blockSize, std::uint8_t queues,
                              const char* file, int line) {
  const int x = npukb::vector_cores();
  if (blockStart % 2 != 0 || blockSize % 2 != 0 || blockSize == 0) {
    npukb::violation(api, "blockStart = " + num(blockStart) + " and blockSize = " + num(blockSize) + " must be even "
                     "(AIC index x 2, AIC count x 2; blockSize > 0)", file, line);
  }
  if (blockStart + blockSize > x - 1) {
    npukb::violation(api, "blockStart + blockSize = " + num(blockStart + blockSize) + " exceeds " + num(x - 1) +
                     " (the chip's " + num(x) + " vector cores - 1)", file, line);
  }
  const int aics = blockSize / 2;
  const int per = (queues + aics - 1) / aics;
  if (queues > x || queues == 0 || queues - (aics - 1) * per < 1) {
    npukb::violation(api, "msgQueueSize = " + num(queues) + " with " + num(aics) + " AIC(s): at most " + num(x) +
                     " queues and every AIC needs at least one (ceil(msgQueueSize / AICs) per AIC, the rest to the "
                     "last)", file, line);
  }
  const npukb::BlockState& b = npukb::block();
  const bool mixed = b.kernel_type == 4 || b.kernel_type == 5;   // KERNEL_TYPE_MIX_AIC_1_1 / 1_2
  if (!mixed) {
    npukb::violation(api, "a cube group needs a mixed launch (KERNEL_TYPE_MIX_AIC_1_1 / 1_2): the AICs serve the AIVs' "
                     "messages", file, line);
  }
  if (blockStart / 2 + aics > b.block_num) {
    npukb::violation(api, "the group's AICs " + num(blockStart / 2) + ".." + num(blockStart / 2 + aics - 1) +
                     " are not all in this launch (blockDim " + num(b.block_num) + ")", file, line);
  }
}

}  // namespace cube_group
}  // namespace sim

class KfcWorkspace;
template <typename CubeMsgType>
class CubeResGroupHandle;
template <int groupID, class MatmulApiType, template <class, class> class CallBack, typename CubeMsgType>
inline CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(KfcWorkspace& desc, std::uint8_t blockStart,
                                                          std::uint8_t blockSize, std::uint8_t msgQueueSize,
                                                          GM_ADDR tiling);

// ---- KfcWorkspace -------------------------------------------------------------------------------------
class KfcWorkspace {
 public:
  KfcWorkspace(GM_ADDR workspace)
      : msgStart_(workspace) { NPUKB_CALLER;
    sim::cube_group::mark_group_api("KfcWorkspace", file, line);
  }
  ~KfcWorkspace() = default;
  void UpdateKfcWorkspace(std::uint32_t offset) { NPUKB_CALLER;
    if (created_) {
      npukb::violation("UpdateKfcWorkspace", "not with CreateCubeResGroup (which places the groups itself)", file, line);
    }
    manual_ = true;
    msgStart_ += offset;
  }
  GM_ADDR GetKfcWorkspace() { NPUKB_CALLER;
    if (created_) {
      npukb::violation("GetKfcWorkspace", "not with CreateCubeResGroup (which places the groups itself)", file, line);
    }
    manual_ = true;
    return msgStart_;
  }


 private:
  template <int G, class M, template <class, class> class C, typename T>
  friend CubeResGroupHandle<T> CreateCubeResGroup(KfcWorkspace&, std::uint8_t, std::uint8_t, std::uint8_t, GM_ADDR);

  // CreateCubeResGroup: the next group's area and event id.
  GM_ADDR take(std::size_t bytes, std::uint8_t& evt, const char* file, int line) {
    if (manual_) {
      npukb::violation("CreateCubeResGroup", "not with UpdateKfcWorkspace / GetKfcWorkspace on the same KfcWorkspace",
                       file, line);
    }
    created_ = true;
    GM_ADDR at = msgStart_;
    msgStart_ += bytes;
    evt = evtID_++;
    return at;
  }

  GM_ADDR msgStart_;
  std::uint8_t evtID_ = 0;
  bool created_ = false, manual_ = false;
};

// ---- CubeResGroupHandle ---------------------------------------------------------------------------------
template <typename CubeMsgType>
class CubeResGroupHandle {
  static_assert(sizeof(CubeMsgType) % 64 == 0, "CubeResGroupHandle: the message struct must be a multiple of 64 bytes");
  static_assert(std::is_same<typename std::remove_cv<decltype(CubeMsgType::head)>::type, CubeGroupMsgHead>::value,
                "CubeResGroupHandle: the message struct starts with `CubeGroupMsgHead head`");
  static_assert(std::is_trivially_copyable<CubeMsgType>::value, "CubeResGroupHandle: the message struct is plain data");

 public:
  CubeResGroupHandle() = default;
  CubeResGroupHandle(GM_ADDR workspace, std::uint8_t blockStart, std::uint8_t blockSize, std::uint8_t msgQueueSize,
                     std::uint8_t evtIDIn) { NPUKB_CALLER;
    setup("CubeResGroupHandle", workspace, blockStart, blockSize, msgQueueSize, evtIDIn, file, line);
  }

  // ---- AIV side ----
  void AssignQueue(std::uint8_t queueIdIn) { NPUKB_CALLER;
    if (sim::cube_group::on_aic()) return;
    require_group("AssignQueue", file, line);
    if (queueIdIn >= queues_) {
      npukb::violation("AssignQueue", "queueIdIn = " + sim::cube_group::num(queueIdIn) + " outside [0, msgQueueSize - 1 = " +
                       sim::cube_group::num(queues_ - 1) + "]", file, line);
    }
    auto key = std::make_pair(reinterpret_cast<std::uintptr_t>(area_), static_cast<int>(queueIdIn));
    auto& owners = sim::cube_group::tables().queue_owner;
    const int me = npukb::block().block_idx;
    auto it = owners.find(key);
    if (it != owners.end() && it->second != me) {
      npukb::violation("AssignQueue", "queue " + sim::cube_group::num(queueIdIn) + " is already bound to AIV " +
                       sim::cube_group::num(it->second) + " (every queue binds exactly one AIV)", file, line);
    }
    owners[key] = me;
    queue_ = queueIdIn;
    aic_ = queue_ / per_aic_;
    col_ = queue_ % per_aic_;
    row_ = 0;
    bound_ = true;
  }

  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  __gm__ CubeMsgType* AllocMessage() { NPUKB_CALLER;
    static_assert(pipeMode == PipeMode::SCALAR_MODE || pipeMode == PipeMode::MTE3_MODE,
                  "AllocMessage: pipeMode is SCALAR_MODE or MTE3_MODE");
    if (sim::cube_group::on_aic()) return nullptr;
    require_bound("AllocMessage", file, line);
    CubeMsgType* msg = slot(aic_, row_, col_);
    sim::cube_group::check_state_byte("AllocMessage", msg, file, line);
    npukb::wait_for([msg] { return sim::cube_group::state_of(msg) == CubeMsgState::FREE; },
                    "AllocMessage (queue " + sim::cube_group::num(queue_) + ", message " + sim::cube_group::num(row_) +
                        " not FREE yet)", file, line);
    sim::cube_group::advance_to(sim::cube_group::time_of(msg));
    row_ = (row_ + 1) % sim::cube_group::kDepth;
    last_alloc_ = msg;
    last_mode_ = pipeMode;
    return msg;
  }

  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  std::uint16_t PostMessage(__gm__ CubeMsgType* msg, CubeMsgType& msgInput) { NPUKB_CALLER;
    static_assert(pipeMode == PipeMode::SCALAR_MODE || pipeMode == PipeMode::MTE3_MODE,
                  "PostMessage: pipeMode is SCALAR_MODE or MTE3_MODE");
    if (sim::cube_group::on_aic()) return 0;
    const std::uint16_t off = own_offset("PostMessage", msg, file, line);
    if (msg == last_alloc_ && last_mode_ != pipeMode) {
      npukb::violation("PostMessage", "pipeMode differs from the AllocMessage of this message (they must match)",
                       file, line);
    }
    const double t = sim::cube_group::clock_of(pipeMode == PipeMode::MTE3_MODE ? npukb::PIPE_ID_MTE3 : npukb::PIPE_ID_S);
    // The body first, the state byte last (what the AIC polls).
    const auto* src = reinterpret_cast<const unsigned char*>(&msgInput);
    std::memcpy(reinterpret_cast<unsigned char*>(msg) + 1, src + 1, sizeof(CubeMsgType) - 1);
    sim::cube_group::tables().msg_served[reinterpret_cast<std::uintptr_t>(msg)] = false;
    sim::cube_group::set_state(msg, static_cast<CubeMsgState>(src[0]), t);
    return off;
  }

  std::uint16_t PostFakeMsg(__gm__ CubeMsgType* msg) { NPUKB_CALLER;
    if (sim::cube_group::on_aic()) return 0;
    const std::uint16_t off = own_offset("PostFakeMsg", msg, file, line);
    check_scalar_alloc("PostFakeMsg", msg, file, line);
    msg->head.aivID = queue_;
    sim::cube_group::set_state(msg, CubeMsgState::FAKE, sim::cube_group::clock_of(npukb::PIPE_ID_S));
    return off;
  }

  void SetQuit(__gm__ CubeMsgType* msg) { NPUKB_CALLER;
    if (sim::cube_group::on_aic()) return;
    own_offset("SetQuit", msg, file, line);
    check_scalar_alloc("SetQuit", msg, file, line);
    msg->head.aivID = queue_;
    sim::cube_group::set_state(msg, CubeMsgState::QUIT, sim::cube_group::clock_of(npukb::PIPE_ID_S));
  }

  template <bool sync = true>
  bool Wait(std::uint16_t offset) { NPUKB_CALLER;
    if (sim::cube_group::on_aic()) return true;
    require_bound("Wait", file, line);
    const int n = queues_of(aic_);
    if (offset % n != 0 || offset / n >= sim::cube_group::kDepth) {
      npukb::violation("Wait", "offset " + sim::cube_group::num(offset) + " is no message of this queue (PostMessage / "
                       "PostFakeMsg return it: a multiple of " + sim::cube_group::num(n) + " below " +
                       sim::cube_group::num(n * sim::cube_group::kDepth) + ")", file, line);
    }
    CubeMsgType* msg = slot(aic_, offset / n, col_);
    auto freed = [msg] { return sim::cube_group::state_of(msg) == CubeMsgState::FREE; };
    if (sync) {
      npukb::wait_for(freed, "Wait (queue " + sim::cube_group::num(queue_) + ", message " +
                                 sim::cube_group::num(offset / n) + " not processed yet)", file, line);
    } else {
      npukb::wait_for([] { return true; }, "Wait<false>", file, line, true);   // a poll lets the others run
      if (!freed()) return false;
    }
    sim::cube_group::advance_to(sim::cube_group::time_of(msg));
    return true;
  }

  // ---- AIC side (inside CallBack::Call) ----
  std::uint16_t FreeMessage(__gm__ CubeMsgType* msg) { NPUKB_CALLER;
    const std::uint16_t off = aic_offset("FreeMessage", msg, file, line);
    sim::cube_group::set_state(msg, CubeMsgState::FREE, sim::cube_group::clock_all());
    return off;
  }
  std::uint16_t FreeMessage(__gm__ CubeMsgType* msg, CubeMsgState waitState) { NPUKB_CALLER;
    if (waitState == CubeMsgState::QUIT || waitState == CubeMsgState::FREE) {
      npukb::violation("FreeMessage", "waitState must not be QUIT or FREE", file, line);
    }
    const std::uint16_t off = aic_offset("FreeMessage", msg, file, line);
    npukb::wait_for([msg, waitState] { return sim::cube_group::state_of(msg) == waitState; },
                    std::string("FreeMessage (waiting for the message to become ") +
                        (waitState == CubeMsgState::FAKE ? "FAKE" : "VALID") + ")", file, line);
    sim::cube_group::advance_to(sim::cube_group::time_of(msg));
    sim::cube_group::set_state(msg, CubeMsgState::FREE, sim::cube_group::clock_all());
    return off;
  }
  void SetSkipMsg(std::uint8_t skipCnt) { NPUKB_CALLER;
    if (!sim::cube_group::on_aic() || !serving_) {
      npukb::violation("SetSkipMsg", "only inside the callback of the AIC serving the group", file, line);
    }
    if (srv_col_ + 1 + skipCnt > queues_of(srv_aic_)) {
      npukb::violation("SetSkipMsg", "skipCnt = " + sim::cube_group::num(skipCnt) + " from queue " +
                       sim::cube_group::num(srv_aic_ * per_aic_ + srv_col_) + " runs past the last queue of this AIC "
                       "(skipping never crosses into the next row)", file, line);
    }
    skip_ = skipCnt;
  }


 private:
  template <int G, class M, template <class, class> class C, typename T>
  friend CubeResGroupHandle<T> CreateCubeResGroup(KfcWorkspace&, std::uint8_t, std::uint8_t, std::uint8_t, GM_ADDR);

  // CreateCubeResGroup's server (not part of the documented interface).
  // The AIC index inside the group that this cube core is, or -1.
  int member() const {
    if (!sim::cube_group::on_aic() || area_ == nullptr) return -1;
    const int g = npukb::block().core_idx - block_start_ / 2;
    return g >= 0 && g < aics_ ? g : -1;
  }
  template <typename F>
  void serve(int g, F&& call, const char* file, int line) {
    const int n = queues_of(g);
    std::uint64_t active = n >= 64 ? ~0ull : ((1ull << n) - 1);
    int row = 0, col = 0;
    serving_ = true;
    srv_aic_ = g;
    while (active != 0) {
      if ((active >> col & 1ull) == 0) {
        step(row, col, n, 1);
        continue;
      }
      CubeMsgType* msg = slot(g, row, col);
      sim::cube_group::check_state_byte("CreateCubeResGroup", msg, file, line);
      npukb::wait_for([msg] { return sim::cube_group::state_of(msg) != CubeMsgState::FREE; },
                      "the AIC server of a cube group (waiting for queue " + sim::cube_group::num(g * per_aic_ + col) +
                          ", message " + sim::cube_group::num(row) + ")", file, line);
      sim::cube_group::check_state_byte("CreateCubeResGroup", msg, file, line);
      sim::cube_group::advance_to(sim::cube_group::time_of(msg));
      const CubeMsgState st = sim::cube_group::state_of(msg);
      if (st == CubeMsgState::QUIT) {
        active &= ~(1ull << col);
        sim::cube_group::set_state(msg, CubeMsgState::FREE, sim::cube_group::clock_all());
        step(row, col, n, 1);
      } else if (st == CubeMsgState::FAKE) {
        sim::cube_group::set_state(msg, CubeMsgState::FREE, sim::cube_group::clock_all());
        step(row, col, n, 1);
      } else {
        bool& served = sim::cube_group::tables().msg_served[reinterpret_cast<std::uintptr_t>(msg)];
        if (served) {
          npukb::violation("CreateCubeResGroup", "queue " + sim::cube_group::num(g * per_aic_ + col) + ", message " +
                           sim::cube_group::num(row) + " is still VALID one round later: the callback never freed it "
                           "(FreeMessage)", file, line);
        }
        served = true;
        skip_ = 0;
        srv_col_ = col;
        call(msg);
        step(row, col, n, 1 + skip_);
      }
    }
    serving_ = false;
  }

  void setup(const char* api, GM_ADDR workspace, std::uint8_t blockStart, std::uint8_t blockSize,
             std::uint8_t msgQueueSize, std::uint8_t evt, const char* file, int line) {
    sim::cube_group::mark_group_api(api, file, line);
    sim::cube_group::check_group_shape(api, blockStart, blockSize, msgQueueSize, file, line);
    area_ = workspace;
    block_start_ = blockStart;
    aics_ = blockSize / 2;
    queues_ = msgQueueSize;
    per_aic_ = (queues_ + aics_ - 1) / aics_;
    evt_ = evt;
    npukb::check_gm(area_, static_cast<std::size_t>(sim::cube_group::kDepth) * queues_ * sizeof(CubeMsgType), true, api,
                    file, line);
  }
  int queues_of(int g) const { return g == aics_ - 1 ? queues_ - g * per_aic_ : per_aic_; }
  CubeMsgType* slot(int g, int row, int col) const {
    auto* base = reinterpret_cast<CubeMsgType*>(area_) + static_cast<std::size_t>(sim::cube_group::kDepth) * g * per_aic_;
    return base + row * queues_of(g) + col;
  }
  static void step(int& row, int& col, int n, int k) {
    col += k;
    if (col >= n) {
      col = 0;
      row = (row + 1) % sim::cube_group::kDepth;
    }
  }
  void require_group(const char* api, const char* file, int line) const {
    if (area_ == nullptr) {
      npukb::violation(api, "the handle was default-constructed (use CreateCubeResGroup)", file, line);
    }
  }
  void require_bound(const char* api, const char* file, int line) const {
    require_group(api, file, line);
    if (!bound_) npukb::violation(api, "call AssignQueue first (this AIV has no queue)", file, line);
  }
  // The offset of one of this AIV's messages from its queue's first message.
  std::uint16_t own_offset(const char* api, const CubeMsgType* msg, const char* file, int line) const {
    require_bound(api, file, line);
    const int n = queues_of(aic_);
    for (int r = 0; r < sim::cube_group::kDepth; ++r) {
      if (slot(aic_, r, col_) == msg) return static_cast<std::uint16_t>(r * n);
    }
    npukb::violation(api, "the message is not one of queue " + sim::cube_group::num(queue_) + "'s (use AllocMessage's "
                     "pointer)", file, line);
  }
  void check_scalar_alloc(const char* api, const CubeMsgType* msg, const char* file, int line) const {
    if (msg == last_alloc_ && last_mode_ == PipeMode::MTE3_MODE) {
      npukb::violation(api, "a message allocated with AllocMessage<MTE3_MODE> is sent with PostMessage<MTE3_MODE> only",
                       file, line);
    }
  }
  std::uint16_t aic_offset(const char* api, const CubeMsgType* msg, const char* file, int line) const {
    if (!sim::cube_group::on_aic()) {
      npukb::violation(api, "an AIC-side call (inside the group's callback), made on a vector core", file, line);
    }
    require_group(api, file, line);
    const auto* first = reinterpret_cast<const CubeMsgType*>(area_);
    const long long idx = msg - first;
    if (idx < 0 || idx >= static_cast<long long>(sim::cube_group::kDepth) * queues_) {
      npukb::violation(api, "the message is outside the group's message area", file, line);
    }
    const int g = static_cast<int>(idx / (sim::cube_group::kDepth * per_aic_));
    const int n = queues_of(g);
    const int row = static_cast<int>(idx - static_cast<long long>(g) * sim::cube_group::kDepth * per_aic_) / n;
    return static_cast<std::uint16_t>(row * n);
  }

  GM_ADDR area_ = nullptr;
  int block_start_ = 0, aics_ = 1, queues_ = 0, per_aic_ = 1;
  std::uint8_t evt_ = 0;
  // AIV: its queue and the next message to allocate.
  bool bound_ = false;
  std::uint8_t queue_ = 0;
  int aic_ = 0, col_ = 0, row_ = 0;
  const CubeMsgType* last_alloc_ = nullptr;
  PipeMode last_mode_ = PipeMode::SCALAR_MODE;
  // AIC: the message being served.
  bool serving_ = false;
  int srv_aic_ = 0, srv_col_ = 0, skip_ = 0;
};

template <int groupID, class MatmulApiType, template <class, class> class CallBack, typename CubeMsgType>
inline CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(KfcWorkspace& desc, std::uint8_t blockStart,
                                                          std::uint8_t blockSize, std::uint8_t msgQueueSize,
                                                          GM_ADDR tiling) {
  NPUKB_CALLER;
  using Handle = CubeResGroupHandle<CubeMsgType>;
  std::uint8_t evt = 0;
  GM_ADDR area = desc.take(static_cast<std::size_t>(sim::cube_group::kDepth) * msgQueueSize * sizeof(CubeMsgType),
                                 evt, file, line);
  Handle handle;
  handle.setup("CreateCubeResGroup", area, blockStart, blockSize, msgQueueSize, evt, file, line);
  // Every block creates the same groups; their AIC ranges do not overlap.
  auto& groups = sim::cube_group::tables().groups;
  const sim::cube_group::GroupRecord rec{blockStart, blockSize, msgQueueSize, reinterpret_cast<std::uintptr_t>(area)};
  auto it = groups.find(groupID);
  if (it == groups.end()) {
    for (const auto& g : groups) {
      const int a0 = g.second.block_start / 2, a1 = a0 + g.second.block_size / 2;
      const int b0 = blockStart / 2, b1 = b0 + blockSize / 2;
      if (a0 < b1 && b0 < a1) {
        npukb::violation("CreateCubeResGroup", "group " + sim::cube_group::num(groupID) + "'s AICs overlap group " +
                         sim::cube_group::num(g.first) + "'s (an AIC belongs to one group)", file, line);
      }
    }
    groups[groupID] = rec;
  } else if (it->second.block_start != rec.block_start || it->second.block_size != rec.block_size ||
             it->second.queues != rec.queues || it->second.area != rec.area) {
    npukb::violation("CreateCubeResGroup", "group " + sim::cube_group::num(groupID) + " was created with other "
                     "arguments (or another workspace) on another core", file, line);
  }
  const int g = handle.member();
  if (g >= 0) {
    npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
    if (regs.group_served) {
      npukb::violation("CreateCubeResGroup", "this AIC already served a group (an AIC belongs to one group)", file, line);
    }
    regs.group_served = true;
    using Cb = CallBack<MatmulApiType, CubeMsgType>;
    MatmulApiType mm;
    Cb cb;
    Cb::Init(cb, mm, tiling);
    handle.serve(g, [&](CubeMsgType* msg) { Cb::Call(mm, msg, handle); }, file, line);
  }
  return handle;
}

// ---- GroupBarrier --------------------------------------------------------------------------------------
// GM layout (the simulator's): the documented 512 bytes per Wait-group member (GetWorkspaceLen: 3 arrivers
// and 6 waiters take 6 x 512 = 3072 bytes). Block j holds waiter j's pass count (uint32 at its start) and,
// from byte 32 on, one uint32 per Arrive-group member: how often that member arrived. Arrive(i) counts in
// every waiter's block; Wait(j) returns once every Arrive counter of block j reached its own count + 1,
// with the latest of those Arrive clocks.
template <PipeMode pipeMode>
class GroupBarrier {
  static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier: only PipeMode::MTE3_MODE is supported");

 public:
  GroupBarrier(GM_ADDR groupWorkspace, std::uint32_t arriveSizeIn, std::uint32_t waitSizeIn)
      : ws_(groupWorkspace), arrive_(arriveSizeIn), wait_(waitSizeIn) { NPUKB_CALLER;
    sim::cube_group::mark_group_api("GroupBarrier", file, line);
    if (reinterpret_cast<std::uintptr_t>(groupWorkspace) % 512 != 0) {
      npukb::violation("GroupBarrier", "groupWorkspace must be 512-byte aligned", file, line);
    }
    if (arrive_ == 0 || wait_ == 0) {
      npukb::violation("GroupBarrier", "arriveSizeIn and waitSizeIn must be at least 1", file, line);
    }
    if (arrive_ > static_cast<std::uint32_t>(npukb::vector_cores()) ||
        wait_ > static_cast<std::uint32_t>(npukb::vector_cores())) {
      npukb::violation("GroupBarrier", "arriveSizeIn = " + sim::cube_group::num(arrive_) + " and waitSizeIn = " +
                       sim::cube_group::num(wait_) + " count AIVs: at most the chip's " +
                       sim::cube_group::num(npukb::vector_cores()) + " each", file, line);
    }
    npukb::check_gm(ws_, GetWorkspaceLen(), true, "GroupBarrier", file, line);
  }
  void Arrive(std::uint32_t arriveIndex) { NPUKB_CALLER;
    if (arriveIndex >= arrive_) {
      npukb::violation("GroupBarrier::Arrive", "arriveIndex = " + sim::cube_group::num(arriveIndex) +
                       " outside [0, arriveSize - 1 = " + sim::cube_group::num(arrive_ - 1) + "]", file, line);
    }
    std::uint32_t seen = 0;
    for (std::uint32_t j = 0; j < wait_; ++j) {
      const std::uint32_t v = *arrived(j, arriveIndex);
      check_cleared("GroupBarrier::Arrive", v, file, line);
      seen = std::max(seen, v);
    }
    const std::uint32_t round = seen + 1;
    if (round > sim::cube_group::kBarrierMaxRounds) {
      npukb::violation("GroupBarrier::Arrive", "more than 1048575 rounds", file, line);
    }
    sim::cube_group::tables().arrive_time[{reinterpret_cast<std::uintptr_t>(arrived(0, arriveIndex)), round}] =
        sim::cube_group::clock_of(npukb::PIPE_ID_MTE3);
    for (std::uint32_t j = 0; j < wait_; ++j) *arrived(j, arriveIndex) = round;
  }
  void Wait(std::uint32_t waitIndex) { NPUKB_CALLER;
    if (waitIndex >= wait_) {
      npukb::violation("GroupBarrier::Wait", "waitIndex = " + sim::cube_group::num(waitIndex) +
                       " outside [0, waitSize - 1 = " + sim::cube_group::num(wait_ - 1) + "]", file, line);
    }
    auto* mine = passed(waitIndex);
    check_cleared("GroupBarrier::Wait", *mine, file, line);
    for (std::uint32_t i = 0; i < arrive_; ++i) check_cleared("GroupBarrier::Wait", *arrived(waitIndex, i), file, line);
    const std::uint32_t round = *mine + 1;
    if (round > sim::cube_group::kBarrierMaxRounds) {
      npukb::violation("GroupBarrier::Wait", "more than 1048575 rounds", file, line);
    }
    GroupBarrier* self = this;
    npukb::wait_for(
        [self, waitIndex, round] {
          for (std::uint32_t i = 0; i < self->arrive_; ++i) {
            if (*self->arrived(waitIndex, i) < round) return false;
          }
          return true;
        },
        "GroupBarrier::Wait (round " + sim::cube_group::num(round) + ": not every Arrive yet)", file, line);
    double t = 0.0;
    for (std::uint32_t i = 0; i < arrive_; ++i) {
      auto& at = sim::cube_group::tables().arrive_time;
      auto it = at.find({reinterpret_cast<std::uintptr_t>(arrived(0, i)), round});
      if (it != at.end()) t = std::max(t, it->second);
    }
    sim::cube_group::advance_to(t);
    *mine = round;
  }
  std::uint64_t GetWorkspaceLen() {
    return static_cast<std::uint64_t>(wait_) * sim::cube_group::kBarrierBlock;
  }

 private:
  static void check_cleared(const char* api, std::uint32_t v, const char* file, int line) {
    if (v > sim::cube_group::kBarrierMaxRounds) {
      npukb::violation(api, "counter " + sim::cube_group::num(v) + " read from groupWorkspace: it was not cleared "
                       "(zero it before the barrier is used)", file, line);
    }
  }
  volatile std::uint32_t* passed(std::uint32_t j) const {
    return reinterpret_cast<volatile std::uint32_t*>(ws_ + static_cast<std::size_t>(j) * sim::cube_group::kBarrierBlock);
  }
  volatile std::uint32_t* arrived(std::uint32_t j, std::uint32_t i) const {
    return reinterpret_cast<volatile std::uint32_t*>(ws_ + static_cast<std::size_t>(j) * sim::cube_group::kBarrierBlock +
                                                     sim::cube_group::kBarrierArriveAt + 4u * i);
  }
  GM_ADDR ws_;
  std::uint32_t arrive_, wait_;
};

}  // namespace AscendC

// npukb_sim/kernel/pipe.h -- resource management: TPipe, TQue / TQueBind, TBuf, TBufPool and custom
// TBufPools (EXTERN_IMPL_BUFPOOL), PopStackBuffer, LocalMemAllocator, GetTPipePtr, with the device's
// rules: buffer lengths rounded up to 32 bytes, one pool per hardware buffer (VECIN/VECOUT/VECCALC share
// the 196,608-byte UB; A1/B1/C1 live in L1; A2 in L0A, B2 in L0B, CO1 in L0C), at most 64 buffers per
// kernel, at most 8 queue buffers per TPosition holding sync events (the TQue Buffer limit), one live
// TPipe at a time. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/std_library.h"
#include "npukb_sim/kernel/tensor.h"

namespace AscendC {

class TPipe;
inline TPipe* GetTPipePtr();

namespace sim {
constexpr int kMaxBuffers = 64;
constexpr int kQueEvents = 8;       // event IDs per TPosition on the 910B: queue buffers that can hold one
constexpr int kMaxBufPoolIds = 16;  // most buffers a TBufPool may hand out (bufIDSize)

enum class BufState : std::uint8_t { Free, Allocated, Queued, Dequeued };

// The pipe that fills a queue's buffers (it waits in AllocTensor until a reused buffer is free).
inline npukb::PipeId producer_pipe(TPosition p) {
  switch (p) {
    case TPosition::VECIN: case TPosition::A1: case TPosition::B1: case TPosition::C1: return npukb::PIPE_ID_MTE2;
    case TPosition::A2: case TPosition::B2: return npukb::PIPE_ID_MTE1;
    case TPosition::CO1: return npukb::PIPE_ID_M;
    case TPosition::CO2: return npukb::PIPE_ID_FIX;
    default: return npukb::PIPE_ID_V;   // VECOUT, VECCALC
  }
}

// Queue buffers synchronise two pipes with an event ID each, except on VECCALC (one pipe).
inline bool holds_events(TPosition p) { return p != TPosition::VECCALC; }

// The TPipe generation of the block: a new TPipe, Reset or Destroy releases every buffer sized before.
inline std::uint32_t pipe_generation() { return npukb::kern::state().pipe_generation; }

// PipeBarrier<PIPE_ALL> on the cost model's clocks (TPipe::Destroy waits for every pipe).
inline void pipe_all_sync() {
  npukb::kern::KState& s = npukb::kern::state();
  double t = s.issue;
  for (int i = 0; i < npukb::PIPE_ID_COUNT; ++i) t = t > s.pipe[i] ? t : s.pipe[i];
  s.issue = t;
  for (int i = 0; i < npukb::PIPE_ID_COUNT; ++i) s.pipe[i] = t;
  npukb::kern::publish(s);
}

// One address range of a hardware buffer from which buffers are carved one after another (a TPipe's
// share of a hardware buffer, a TBufPool).
struct Range {
  Hardware hw = Hardware::UB;
  std::uint32_t begin = 0, end = 0, used = 0;
};

// A handle slot of a custom TBufPool (TBufHandle points at one): the address and length of one buffer.
struct PoolState;
struct HandleSlot {
  PoolState* pool = nullptr;
  std::uint32_t addr = 0;
  std::uint32_t len = 0;
};

// The state of a TBufPool or a custom TBufPool (EXTERN_IMPL_BUFPOOL).
struct PoolState {
  TPosition pos = TPosition::VECCALC;
  std::uint32_t max_ids = 4;           // bufIDSize / BUFID_SIZE
  bool inited = false;
  std::uint32_t gen = 0;               // the TPipe generation it was sized in
  Range range{};                       // [begin, end) of its hardware buffer; used: next free byte
  std::uint32_t ids = 0;               // buffers handed out
  std::uint32_t cur_addr = 0;          // custom pools: the next free address (SetCurAddr / GetCurAddr)
  std::uint8_t cur_buf_size = 0;       // custom pools: handles in use (SetCurBufSize / GetCurBufSize)
  HandleSlot slots[kMaxBufPoolIds]{};
};

struct QueueBase {
  static constexpr int kMaxNum = kMaxBuffers;
  TPosition pos = TPosition::VECCALC;
  std::int32_t depth = 1;
  std::int32_t num = 0;
  std::uint32_t len = 0;        // bytes per buffer (rounded up to 32)
  sim::LocalLoc proto{};        // the hardware buffer the queue's buffers lie in
  std::uint32_t addr[kMaxNum] = {};
  std::uint32_t blen[kMaxNum] = {};   // bytes of each buffer (len, or the InitBuffer address tuples' lengths)
  std::uint32_t gen = 0;        // the TPipe generation it was sized in
  int events = 0;               // event IDs its buffers hold (released by FreeAllEvent)
  BufState st[kMaxNum] = {};
  std::int32_t fifo[kMaxNum] = {};
  QueueBase* foreign[kMaxNum] = {};
  std::int32_t head = 0, count = 0, next_alloc = 0;

  sim::LocalLoc loc_of(std::int32_t i) {
    sim::LocalLoc l = proto;
    l.addr = addr[i];
    l.owner = this;
    l.buf_idx = i;
    return l;
  }
  // The bytes of the buffer a queue tensor lies in.
  static std::uint32_t bytes_of(const sim::LocalLoc& l) { return l.owner->blen[l.buf_idx]; }
  bool sized() const { return num != 0 && gen == pipe_generation(); }
  void require_init(const char* api, const char* file, int line) const {
    if (num == 0) npukb::violation(api, "the queue was never initialised (call pipe.InitBuffer(queue, num, len) first)", file, line);
    if (gen != pipe_generation()) {
      npukb::violation(api, "the queue's buffers were released (TPipe::Reset / Destroy, or a new TPipe): "
                            "InitBuffer it again", file, line);
    }
  }
  // Size the queue: `n` buffers of `rlen` bytes at `addrs` of the hardware buffer `where`. Its buffers
  // take event IDs of its position: more than 8 at one position fail on the device.
  void size(const sim::LocalLoc& where, std::int32_t n, std::uint32_t rlen, const std::uint32_t* addrs, const char* api,
            const char* file, int line) {
    if (sized()) npukb::violation(api, "the queue was already initialised", file, line);
    if (n <= 0) npukb::violation(api, "num must be at least 1", file, line);
    if (holds_events(pos)) {
      int& used = npukb::kern::state().que_events[static_cast<int>(pos) & 31];
      if (used + n > kQueEvents) {
        // The documented consequence is that a later AllocTensor / FreeTensor may fail: the simulator
        // warns here and fails the AllocTensor that would need a ninth event ID at once (alloc below).
        npukb::warning(api, std::string("the TQue Buffer limit: ") + position_name(pos) + " queue buffers hold " +
                       npukb::kern::num(used) + " of the " + npukb::kern::num(kQueEvents) + " event IDs, " +
                       npukb::kern::num(n) + " more exceed it (FreeAllEvent releases a queue's events); more than " +
                       npukb::kern::num(kQueEvents) + " of them in use at once fail", file, line);
      }
      used += n;
      events = n;
    } else {
      events = 0;
    }
    proto = where;
    num = n;
    len = rlen;
    gen = pipe_generation();
    for (std::int32_t i = 0; i < n; ++i) {
      addr[i] = addrs[i];
      blen[i] = rlen;
      st[i] = BufState::Free;
    }
    head = count = next_alloc = 0;
  }
  sim::LocalLoc alloc(const char* file, int line) {
    require_init("TQue::AllocTensor", file, line);
    for (std::int32_t k = 0; k < num; ++k) {
      const std::int32_t i = (next_alloc + k) % num;
      if (st[i] == BufState::Free) {
        if (holds_events(pos)) {
          int& live = npukb::kern::state().que_live[static_cast<int>(pos) & 31];
          if (live >= kQueEvents) {
            npukb::violation("TQue::AllocTensor", std::string("the TQue Buffer limit: ") + npukb::kern::num(live) + " " +
                             position_name(pos) + " queue buffers are already in use (allocated, not freed), each "
                             "holding one of the position's " + npukb::kern::num(kQueEvents) + " event IDs", file, line);
          }
          ++live;
        }
        st[i] = BufState::Allocated;
        next_alloc = (i + 1) % num;
        sim::LocalLoc l = loc_of(i);
        if (l.hw == Hardware::UB) npukb::kern::wait_buffer_free(producer_pipe(pos), l.addr, l.addr + blen[i]);
        return l;
      }
    }
    npukb::violation("TQue::AllocTensor", "queue depth exceeded: all " + npukb::kern::num(num) +
                     " buffers of this " + position_name(pos) + " queue are still allocated (FreeTensor missing?); "
                     "on hardware this AllocTensor blocks forever", file, line);
  }
  // false when the queue is full (EnQue's documented result; a warning names the line).
  bool enque(const sim::LocalLoc& l, const char* file, int line) {
    require_init("TQue::EnQue", file, line);
    if (l.owner == nullptr) npukb::violation("TQue::EnQue", "the tensor was not allocated from a queue (AllocTensor)", file, line);
    QueueBase* o = l.owner;
    if (o->st[l.buf_idx] != BufState::Allocated && o->st[l.buf_idx] != BufState::Dequeued) {
      npukb::violation("TQue::EnQue", "the tensor's buffer is not allocated (already freed or already queued)", file, line);
    }
    const std::int32_t cap = depth > num ? depth : num;
    if (count >= cap) {
      npukb::warning("TQue::EnQue", "queue full: " + npukb::kern::num(count) + " tensors already queued; EnQue "
                     "returns false and the tensor is not queued", file, line);
      return false;
    }
    o->st[l.buf_idx] = BufState::Queued;
    fifo[(head + count) % kMaxNum] = l.buf_idx;
    foreign[(head + count) % kMaxNum] = o;
    ++count;
    return true;
  }
  sim::LocalLoc deque(const char* file, int line) {
    require_init("TQue::DeQue", file, line);
    if (count == 0) {
      npukb::violation("TQue::DeQue", std::string("hang: DeQue on empty queue (") + position_name(pos) +
                       "): nothing was EnQue'd; on hardware this waits forever", file, line);
    }
    QueueBase* o = foreign[head];
    const std::int32_t idx = fifo[head];
    head = (head + 1) % kMaxNum;
    --count;
    o->st[idx] = BufState::Dequeued;
    return o->loc_of(idx);
  }
  void free(const sim::LocalLoc& l, const char* file, int line) {
    if (l.owner == nullptr) npukb::violation("TQue::FreeTensor", "the tensor was not allocated from a queue (AllocTensor)", file, line);
    QueueBase* o = l.owner;
    o->require_init("TQue::FreeTensor", file, line);
    if (o->st[l.buf_idx] == BufState::Free) npukb::violation("TQue::FreeTensor", "double FreeTensor: the buffer is already free", file, line);
    if (o->st[l.buf_idx] == BufState::Queued) {
      npukb::violation("TQue::FreeTensor", "the tensor is still in a queue (EnQue without DeQue)", file, line);
    }
    o->st[l.buf_idx] = BufState::Free;
    if (holds_events(o->pos)) {
      int& live = npukb::kern::state().que_live[static_cast<int>(o->pos) & 31];
      if (live > 0) --live;
    }
  }
  void free_all_events() {
    if (!sized() || events == 0) return;
    int& used = npukb::kern::state().que_events[static_cast<int>(pos) & 31];
    used = used > events ? used - events : 0;
    events = 0;
  }
  // Custom TBufPool: the queue's buffers are handle slots of a pool (InitStartBufHandle / InitBufHandle).
  HandleSlot* start_handle = nullptr;
};

// TBuf's state (a TBuf is one buffer without queue synchronisation).
struct BufBase {
  sim::LocalLoc loc_{};
  std::uint32_t len_ = 0;
  std::uint32_t gen_ = 0;
  bool inited_ = false;     // InitBuffer ran (a zero-length buffer is legal)
  bool sized() const { return inited_ && gen_ == pipe_generation(); }
};

// Where pool `p` puts `bytes` for `nbuf` buffers (checks the hardware, the range and the id count).
inline std::uint32_t pool_reserve(PoolState& p, Hardware hw, std::uint64_t bytes, std::uint32_t nbuf, const char* api,
                                  const char* file, int line) {
  if (!p.inited || p.gen != pipe_generation()) {
    npukb::violation(api, "the TBufPool was never initialised (TPipe::InitBufPool or TBufPool::InitBufPool first)",
                     file, line);
  }
  if (hw != p.range.hw) {
    npukb::violation(api, std::string("the buffer's physical memory (") + hw_name(hw) + ") differs from the TBufPool's (" +
                     hw_name(p.range.hw) + ")", file, line);
  }
  if (p.ids + nbuf > p.max_ids) {
    npukb::violation(api, "the TBufPool hands out at most " + npukb::kern::num(p.max_ids) + " buffers (bufIDSize)",
                     file, line);
  }
  const std::uint32_t at = (p.range.used + hw_align(hw) - 1) / hw_align(hw) * hw_align(hw);
  if (at + bytes > p.range.end) {
    npukb::violation(api, "TBufPool overflow: " + npukb::kern::num(static_cast<long long>(bytes)) + " bytes at offset " +
                     npukb::kern::num(at) + " exceed the pool [" + npukb::kern::num(p.range.begin) + ", " +
                     npukb::kern::num(p.range.end) + ")", file, line);
  }
  p.range.used = at + static_cast<std::uint32_t>(bytes);
  p.ids += nbuf;
  return at;
}

// A custom TBufPool's POSITION (EXTERN_IMPL_BUFPOOL): VECIN, VECOUT, VECCALC, A1, B1 or C1.
constexpr bool custom_pool_position(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC || p == TPosition::A1 ||
         p == TPosition::B1 || p == TPosition::C1;
}
// A custom TBufPool's Reset: its memory and handles are released (the cursor back at the pool's start, no
// handle in use); the pool serves again only after TPipe::InitBufPool sizes it anew.
inline void reset_custom_pool(PoolState& p) {
  p.inited = false;
  p.ids = 0;
  p.cur_addr = p.range.begin;
  p.cur_buf_size = 0;
  for (auto& s : p.slots) s = HandleSlot{&p, 0, 0};
}
// A handle of a custom pool is usable while the pool is initialised and not Reset.
inline void require_live_pool(const PoolState& p, const char* api, const char* file, int line) {
  if (!p.inited || p.gen != pipe_generation()) {
    npukb::violation(api, "the custom TBufPool was Reset or never initialised (TPipe::InitBufPool first)", file, line);
  }
}
// An InitBuffer address: a Std::tuple of two integers (start address, length).
template <class A>
struct is_address_tuple : std::false_type {};
template <class U, class V>
struct is_address_tuple<Std::tuple<U, V>> : std::bool_constant<std::is_integral_v<U> && std::is_integral_v<V>> {};

// Pools and buffers sized from a pool (defined after TPipe, which counts every buffer).
inline void init_pool(PoolState& p, Hardware hw, std::uint32_t at, std::uint32_t len);
inline void share_pool(PoolState& p, std::uint32_t len, const PoolState& shared, const char* api, const char* file,
                       int line);
template <class Q>
inline void size_queue_from_pool(PoolState& p, Q& que, std::uint8_t num, std::uint32_t len, const char* api,
                                 const char* file, int line);
template <class B>
inline void size_buf_from_pool(PoolState& p, B& buf, TPosition pos, std::uint32_t len, const char* api, const char* file,
                               int line);
}  // namespace sim

// TQueBind<src, dst, depth>: a queue of `num` buffers (InitBuffer) between two logical positions. depth
// 0 is the in-place form (AllocTensor / DeQue into a tensor the kernel keeps); other depths the queue form.
// (The depth parameter is named queDepth: QueueBase::depth, the runtime copy, would hide it.)
template <TPosition src, TPosition dst, std::int32_t queDepth, auto mask = 0>
class TQueBind : public sim::QueueBase {
 public:
  TQueBind() { this->pos = src == TPosition::GM ? dst : src; this->depth = queDepth; }

  template <typename T>
  LocalTensor<T> AllocTensor() { NPUKB_CALLER;
    static_assert(queDepth != 0, "TQueBind::AllocTensor<T>(): a queue of depth 0 takes the in-place form AllocTensor(tensor)");
    const sim::LocalLoc l = alloc(file, line);
    return LocalTensor<T>::make(l, bytes_of(l) / static_cast<std::uint32_t>(sizeof(sim::lite_t<T>)));
  }
  template <typename T>
  void AllocTensor(LocalTensor<T>& tensor) { NPUKB_CALLER;
    static_assert(queDepth == 0, "TQueBind::AllocTensor(tensor): the in-place form needs a queue of depth 0");
    const sim::LocalLoc l = alloc(file, line);
    tensor = LocalTensor<T>::make(l, bytes_of(l) / static_cast<std::uint32_t>(sizeof(sim::lite_t<T>)));
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) { NPUKB_CALLER;
    free(tensor.loc(), file, line);
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor) { NPUKB_CALLER;
    return enque(tensor.loc(), file, line);
  }
  template <typename T>
  LocalTensor<T> DeQue() { NPUKB_CALLER;
    static_assert(queDepth != 0, "TQueBind::DeQue<T>(): a queue of depth 0 takes the in-place form DeQue(tensor)");
    const sim::LocalLoc l = deque(file, line);
    return LocalTensor<T>::make(l, bytes_of(l) / static_cast<std::uint32_t>(sizeof(sim::lite_t<T>)));
  }
  template <typename T>
  void DeQue(LocalTensor<T>& tensor) { NPUKB_CALLER;
    static_assert(queDepth == 0, "TQueBind::DeQue(tensor): the in-place form needs a queue of depth 0");
    const sim::LocalLoc l = deque(file, line);
    tensor = LocalTensor<T>::make(l, bytes_of(l) / static_cast<std::uint32_t>(sizeof(sim::lite_t<T>)));
  }
  // The front buffer's handle, without a tensor (real kernels discard it: `que.DeQue();` after an EnQue).
  TBufHandle DeQue() { NPUKB_CALLER;
    const sim::LocalLoc l = deque(file, line);
    return l.base + l.addr;
  }
  // The forms that name the user-visible source and destination positions (TQueBind<VECIN, VECOUT, ..>).
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  bool EnQue(const LocalTensor<T>& tensor) { NPUKB_CALLER;
    return enque(tensor.loc(), file, line);
  }
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  LocalTensor<T> DeQue() { NPUKB_CALLER;
    static_assert(queDepth != 0, "TQueBind::DeQue<src, dst, T>(): needs a queue of depth other than 0");
    const sim::LocalLoc l = deque(file, line);
    return LocalTensor<T>::make(l, bytes_of(l) / static_cast<std::uint32_t>(sizeof(sim::lite_t<T>)));
  }
  bool VacantInQue() {
    static_assert(queDepth != 0, "VacantInQue: not for queues of depth 0 (in-place)");
    return count < queDepth;
  }
  bool HasTensorInQue() {
    static_assert(queDepth != 0, "HasTensorInQue: not for queues of depth 0 (in-place)");
    return count > 0;
  }
  std::int32_t GetTensorCountInQue() {
    static_assert(queDepth != 0, "GetTensorCountInQue: not for queues of depth 0 (in-place)");
    return count;
  }
  bool HasIdleBuffer() {
    static_assert(queDepth != 0, "HasIdleBuffer: not for queues of depth 0 (in-place)");
    for (std::int32_t i = 0; i < num; ++i) if (st[i] == sim::BufState::Free) return true;
    return false;
  }
  // Releases the event IDs the queue's buffers hold (the TQue Buffer limit), so that other queues of the
  // position can be sized; the queue itself keeps working here (the device no longer synchronises it).
  void FreeAllEvent() {
    static_assert(queDepth != 0, "FreeAllEvent: not for queues of depth 0 (in-place)");
    free_all_events();
  }

  // Custom TBufPool support: the queue's `num` buffers of `len` bytes are the handle slots from
  // `startBufhandle` on; InitBufHandle gives buffer `index` its address in the pool.
  void InitStartBufHandle(TBufHandle startBufhandle, std::uint8_t num, std::uint32_t len) { NPUKB_CALLER;
    auto* slot = reinterpret_cast<sim::HandleSlot*>(startBufhandle);
    if (slot == nullptr || slot->pool == nullptr) {
      npukb::violation("TQueBind::InitStartBufHandle", "not a handle of a custom TBufPool (GetBufHandle)", file, line);
    }
    sim::require_live_pool(*slot->pool, "TQueBind::InitStartBufHandle", file, line);
    std::uint32_t addrs[kMaxNum] = {};
    for (std::uint8_t i = 0; i < num && i < kMaxNum; ++i) addrs[i] = slot[i].addr;
    sim::LocalLoc where;
    sim::hw_region(slot->pool->range.hw, where.base, where.region_bytes);
    where.hw = slot->pool->range.hw;
    where.pos = this->pos;
    size(where, num, (len + 31u) / 32u * 32u, addrs, "TQueBind::InitStartBufHandle", file, line);
    start_handle = slot;
  }
  template <typename T>
  void InitBufHandle(T* bufPool, std::uint32_t index, TBufHandle bufhandle, std::uint32_t curPoolAddr,
                     std::uint32_t len) { NPUKB_CALLER;
    sim::PoolState& p = bufPool->npukbPool;
    auto* slot = reinterpret_cast<sim::HandleSlot*>(bufhandle);
    if (slot == nullptr || slot->pool != &p) {
      npukb::violation("TQueBind::InitBufHandle", "bufhandle is not a handle of this TBufPool", file, line);
    }
    sim::require_live_pool(p, "TQueBind::InitBufHandle", file, line);
    if (curPoolAddr < p.range.begin || static_cast<std::uint64_t>(curPoolAddr) + len > p.range.end) {
      npukb::violation("TQueBind::InitBufHandle", "buffer [" + npukb::kern::num(curPoolAddr) + ", " +
                       npukb::kern::num(static_cast<long long>(curPoolAddr) + len) + ") lies outside the pool [" +
                       npukb::kern::num(p.range.begin) + ", " + npukb::kern::num(p.range.end) + ")", file, line);
    }
    if (curPoolAddr % 32 != 0) {
      npukb::violation("TQueBind::InitBufHandle", "address " + npukb::kern::num(curPoolAddr) + " is not 32-byte aligned",
                       file, line);
    }
    slot->addr = curPoolAddr;
    slot->len = len;
    if (index < static_cast<std::uint32_t>(kMaxNum) && index < static_cast<std::uint32_t>(num)) addr[index] = curPoolAddr;
  }
};

template <TPosition pos, std::int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// TBuf<pos>: one buffer used without queue synchronisation.
template <TPosition pos = TPosition::LCM>
class TBuf : public sim::BufBase {
 public:
  TBuf() = default;

  template <typename T>
  LocalTensor<T> Get() { NPUKB_CALLER;
    if (!inited_) return LocalTensor<T>::make(uninitialised_loc("TBuf::Get", file, line), 0);
    return LocalTensor<T>::make(loc_, len_ / static_cast<std::uint32_t>(sizeof(sim::lite_t<T>)));
  }
  template <typename T>
  LocalTensor<T> Get(std::uint32_t len) { NPUKB_CALLER;
    if (!inited_) return LocalTensor<T>::make(uninitialised_loc("TBuf::Get", file, line), 0);
    if (static_cast<std::uint64_t>(len) * sizeof(sim::lite_t<T>) > len_) {
      npukb::violation("TBuf::Get", "requested " + npukb::kern::num(len) + " elements (" +
                       npukb::kern::num(static_cast<long long>(len * sizeof(sim::lite_t<T>))) + " bytes) but the buffer has " +
                       npukb::kern::num(len_) + " bytes", file, line);
    }
    return LocalTensor<T>::make(loc_, len);
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(std::uint32_t size, std::uint32_t bufOffset) { NPUKB_CALLER;
    if (!inited_) return LocalTensor<T>::make(uninitialised_loc("TBuf::GetWithOffset", file, line), 0);
    if (bufOffset % 32 != 0) {
      npukb::violation("TBuf::GetWithOffset", "unaligned UB address: bufOffset " + npukb::kern::num(bufOffset) +
                       " is not a multiple of 32 bytes", file, line);
    }
    if (static_cast<std::uint64_t>(bufOffset) + static_cast<std::uint64_t>(size) * sizeof(sim::lite_t<T>) > len_) {
      npukb::violation("TBuf::GetWithOffset", "offset " + npukb::kern::num(bufOffset) + " + " +
                       npukb::kern::num(static_cast<long long>(size * sizeof(sim::lite_t<T>))) + " bytes exceeds the buffer of " +
                       npukb::kern::num(len_) + " bytes", file, line);
    }
    sim::LocalLoc l = loc_;
    l.addr += bufOffset;
    return LocalTensor<T>::make(l, size);
  }

  // The queue functions a TBuf inherits on the real API (TQueBind<pos, pos, 0, 0>): its one buffer,
  // without any queue synchronisation. AllocTensor / DeQue hand out the whole buffer; FreeTensor and
  // EnQue only check that the tensor is this TBuf's.
  template <typename T>
  LocalTensor<T> AllocTensor() {
    return Get<T>();
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) { NPUKB_CALLER;
    require_own("TBuf::FreeTensor", tensor.loc(), file, line);
  }
  template <typename T>
  void EnQue(const LocalTensor<T>& tensor) { NPUKB_CALLER;
    require_own("TBuf::EnQue", tensor.loc(), file, line);
  }
  template <typename T>
  LocalTensor<T> DeQue() {
    return Get<T>();
  }
  // Custom TBufPool: the TBuf's buffer is a handle slot of a pool.
  void InitStartBufHandle(TBufHandle startBufhandle, std::uint8_t num, std::uint32_t len) { NPUKB_CALLER;
    auto* slot = reinterpret_cast<sim::HandleSlot*>(startBufhandle);
    if (slot == nullptr || slot->pool == nullptr) {
      npukb::violation("TBuf::InitStartBufHandle", "not a handle of a custom TBufPool (GetBufHandle)", file, line);
    }
    if (num != 1) npukb::violation("TBuf::InitStartBufHandle", "a TBuf has one buffer (num 1)", file, line);
    sim::hw_region(slot->pool->range.hw, loc_.base, loc_.region_bytes);
    loc_.hw = slot->pool->range.hw;
    loc_.pos = pos;
    loc_.addr = slot->addr;
    len_ = (len + 31u) / 32u * 32u;
    gen_ = sim::pipe_generation();
    inited_ = true;
    start_ = slot;
  }
  template <typename T>
  void InitBufHandle(T* bufPool, std::uint32_t index, TBufHandle bufhandle, std::uint32_t curPoolAddr,
                     std::uint32_t len) { NPUKB_CALLER;
    auto* slot = reinterpret_cast<sim::HandleSlot*>(bufhandle);
    if (slot == nullptr || slot->pool != &bufPool->npukbPool) {
      npukb::violation("TBuf::InitBufHandle", "bufhandle is not a handle of this TBufPool", file, line);
    }
    slot->addr = curPoolAddr;
    slot->len = len;
    if (index == 0) loc_.addr = curPoolAddr;
  }

 private:
  // Get on a TBuf that InitBuffer never sized: the device hands out a tensor at the buffer's unset
  // address (the start of the hardware buffer) with no elements. Harmless while unused (a kernel that
  // takes the tensor on a path that does not need it); any access runs past it and is judged as such
  // (inside UB: other buffers' bytes, with a warning; elsewhere a violation).
  sim::LocalLoc uninitialised_loc(const char* api, const char* file, int line) const {
    npukb::warning(api, "the TBuf was never initialised (pipe.InitBuffer(buf, bytes)): a tensor of 0 elements at "
                        "the start of its buffer", file, line);
    sim::LocalLoc l;
    sim::hw_region(sim::hardware_of(pos), l.base, l.region_bytes);
    l.hw = sim::hardware_of(pos);
    l.pos = pos;
    return l;
  }
  void require_own(const char* api, const sim::LocalLoc& l, const char* file, int line) const {
    if (!inited_) npukb::violation(api, "the TBuf was never initialised (call pipe.InitBuffer(buf, bytes) first)", file, line);
    if (l.base != loc_.base || l.addr < loc_.addr || l.addr >= loc_.addr + len_) {
      npukb::violation(api, "the tensor does not lie in this TBuf", file, line);
    }
  }
  sim::HandleSlot* start_ = nullptr;
};

constexpr std::uint32_t defaultBufIDSize = 4;

// TBufPool<pos, bufIDSize>: a range of a hardware buffer carved out of the TPipe (TPipe::InitBufPool) or
// of another pool, from which InitBuffer sizes at most bufIDSize queues' and TBufs' buffers. A pool
// sized with a shared pool starts where that one starts (the two reuse the same memory).
template <TPosition pos, std::uint32_t bufIDSize = defaultBufIDSize>
class TBufPool {
  static_assert(bufIDSize >= 1 && bufIDSize <= sim::kMaxBufPoolIds, "TBufPool: bufIDSize is at most 16");

 public:
  TBufPool() {
    npukbPool.pos = pos;
    npukbPool.max_ids = bufIDSize;
  }
  template <class T>
  bool InitBufPool(T& bufPool, std::uint32_t len) { NPUKB_CALLER;
    const std::uint32_t rlen = (len + 31u) / 32u * 32u;
    const std::uint32_t at = sim::pool_reserve(npukbPool, sim::hardware_of(bufPool.npukbPool.pos), rlen, 0,
                                               "TBufPool::InitBufPool", file, line);
    sim::init_pool(bufPool.npukbPool, sim::hardware_of(bufPool.npukbPool.pos), at, rlen);
    return true;
  }
  template <class T, class U>
  bool InitBufPool(T& bufPool, std::uint32_t len, U& shareBuf) { NPUKB_CALLER;
    sim::share_pool(bufPool.npukbPool, (len + 31u) / 32u * 32u, shareBuf.npukbPool, "TBufPool::InitBufPool", file, line);
    return true;
  }
  template <class T>
  bool InitBuffer(T& que, std::uint8_t num, std::uint32_t len) { NPUKB_CALLER;
    static_assert(std::is_base_of_v<sim::QueueBase, T>, "TBufPool::InitBuffer(que, num, len) sizes a TQue or TQueBind");
    sim::size_queue_from_pool(npukbPool, que, num, len, "TBufPool::InitBuffer", file, line);
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, std::uint32_t len) { NPUKB_CALLER;
    sim::size_buf_from_pool(npukbPool, buf, bufPos, len, "TBufPool::InitBuffer", file, line);
    return true;
  }
  // Ends the pool's pending events before another pool takes over its memory; its buffers stay sized.
  void Reset() {}

  sim::PoolState npukbPool;   // simulator state (not part of the AscendC API)
};

class TPipe {
 public:
  TPipe() { NPUKB_CALLER;
    npukb::kern::KState& s = npukb::kern::state();
    if (s.live_pipe != nullptr) {
      npukb::violation("TPipe", "a second TPipe while another is alive: the device keeps one TPipe at a time "
                       "(Destroy the first one before creating another)", file, line);
    }
    Init();
  }
  ~TPipe() {
    npukb::kern::KState& s = npukb::kern::state();
    if (s.live_pipe == this) s.live_pipe = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  // Makes this the live TPipe with empty pools (the constructor calls it; after Destroy it starts over).
  void Init() {
    npukb::kern::KState& s = npukb::kern::state();
    s.live_pipe = this;
    release_all();
  }
  // Releases every buffer and event ID; the object is no TPipe any more until Init.
  void Destroy() {
    sim::pipe_all_sync();
    DestroyWithoutPipeAll();
  }
  void DestroyWithoutPipeAll() {
    npukb::kern::KState& s = npukb::kern::state();
    release_all();
    if (s.live_pipe == this) s.live_pipe = nullptr;
  }
  // Releases every buffer and event ID; the TPipe stays (InitBuffer sizes buffers anew).
  void Reset() { release_all(); }

  template <class T>
  bool InitBuffer(T& que, std::uint8_t num, std::uint32_t len) { NPUKB_CALLER;
    static_assert(std::is_base_of_v<sim::QueueBase, T>, "TPipe::InitBuffer(que, num, len) sizes a TQue or TQueBind");
    require_live("TPipe::InitBuffer", file, line);
    if (num == 0) npukb::violation("TPipe::InitBuffer", "num must be at least 1", file, line);
    // len 0 is accepted, as on the device: the buffers occupy no UB and any access to them is out of range.
    const std::uint32_t rlen = (len + 31u) / 32u * 32u;
    const sim::LocalLoc where = reserve(que.pos, static_cast<std::uint64_t>(rlen) * num, num, "TPipe::InitBuffer", file, line);
    std::uint32_t addrs[sim::kMaxBuffers] = {};
    for (std::uint8_t i = 0; i < num; ++i) addrs[i] = where.addr + static_cast<std::uint32_t>(i) * rlen;
    que.size(where, num, rlen, addrs, "TPipe::InitBuffer", file, line);
    return true;
  }

  // The queue's buffers at the addresses the user gives: one Std::tuple (start address, length in bytes)
  // per buffer, in its position's hardware buffer. The ranges are not reserved from the TPipe: mixing
  // this form with the one above may make buffers overlap (a warning names it).
  template <class T, class U, class V, class... Addrs>
  bool InitBuffer(T& que, const Std::tuple<U, V>& addr0, const Addrs&... addrs) { NPUKB_CALLER;
    static_assert(std::is_base_of_v<sim::QueueBase, T>, "TPipe::InitBuffer(que, addr0, addrs...) sizes a TQue or TQueBind");
    static_assert(std::is_integral_v<U> && std::is_integral_v<V>,
                  "TPipe::InitBuffer(que, addr0, addrs...): an address tuple holds an integer start address and length");
    static_assert((sim::is_address_tuple<Addrs>::value && ...),
                  "TPipe::InitBuffer(que, addr0, addrs...): each address is a Std::tuple of two integers "
                  "(start address, length)");
    constexpr int n = 1 + static_cast<int>(sizeof...(Addrs));
    static_assert(n <= sim::kMaxBuffers, "TPipe::InitBuffer(que, addr0, addrs...): at most 64 buffers");
    require_live("TPipe::InitBuffer", file, line);
    const long long starts[n] = {static_cast<long long>(Std::get<0>(addr0)), static_cast<long long>(Std::get<0>(addrs))...};
    const long long lens[n] = {static_cast<long long>(Std::get<1>(addr0)), static_cast<long long>(Std::get<1>(addrs))...};
    return init_at_addresses(que, starts, lens, n, file, line);
  }

  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, std::uint32_t len) { NPUKB_CALLER;
    require_live("TPipe::InitBuffer", file, line);
    if (buf.sized()) npukb::violation("TPipe::InitBuffer", "the TBuf was already initialised", file, line);
    // len 0 is accepted, as on the device: the buffer occupies no UB and any access to it is out of range.
    const std::uint32_t rlen = (len + 31u) / 32u * 32u;
    buf.loc_ = reserve(bufPos, rlen, 1, "TPipe::InitBuffer", file, line);
    buf.len_ = rlen;
    buf.gen_ = sim::pipe_generation();
    buf.inited_ = true;
    return true;
  }

  template <class T>
  bool InitBufPool(T& bufPool, std::uint32_t len) { NPUKB_CALLER;
    require_live("TPipe::InitBufPool", file, line);
    const std::uint32_t rlen = (len + 31u) / 32u * 32u;
    const sim::LocalLoc where = reserve(bufPool.npukbPool.pos, rlen, 0, "TPipe::InitBufPool", file, line);
    sim::init_pool(bufPool.npukbPool, where.hw, where.addr, rlen);
    return true;
  }
  template <class T, class U>
  bool InitBufPool(T& bufPool, std::uint32_t len, U& shareBuf) { NPUKB_CALLER;
    require_live("TPipe::InitBufPool", file, line);
    sim::share_pool(bufPool.npukbPool, (len + 31u) / 32u * 32u, shareBuf.npukbPool, "TPipe::InitBufPool", file, line);
    return true;
  }

  // Event IDs for SetFlag / WaitFlag: 8 per HardEvent. AllocEventID takes the lowest free one until
  // ReleaseEventID; FetchEventID names the lowest free one without taking it.
  template <HardEvent evt>
  TEventID AllocEventID() { NPUKB_CALLER;
    std::uint32_t& ids = npukb::kern::state().alloc_event_ids[static_cast<int>(evt)];
    for (int i = 0; i < npukb::kern::kEventIds; ++i) {
      if ((ids & (1u << i)) == 0) {
        ids |= 1u << i;
        return static_cast<TEventID>(i);
      }
    }
    npukb::violation("TPipe::AllocEventID", "all 8 event IDs of this HardEvent are allocated (ReleaseEventID missing?)",
                     file, line);
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) { NPUKB_CALLER;
    std::uint32_t& ids = npukb::kern::state().alloc_event_ids[static_cast<int>(evt)];
    if (id < 0 || id >= npukb::kern::kEventIds || (ids & (1u << id)) == 0) {
      npukb::violation("TPipe::ReleaseEventID", "event ID " + npukb::kern::num(id) +
                       " was not allocated by AllocEventID of this HardEvent", file, line);
    }
    ids &= ~(1u << id);
  }
  template <HardEvent evt>
  TEventID FetchEventID() { return FetchEventID(evt); }
  TEventID FetchEventID(HardEvent evt) {
    const std::uint32_t ids = npukb::kern::state().alloc_event_ids[static_cast<int>(evt)];
    for (int i = 0; i < npukb::kern::kEventIds; ++i) {
      if ((ids & (1u << i)) == 0) return static_cast<TEventID>(i);
    }
    return 0;
  }

  // The base address of a logical position's hardware buffer (CPU debugging: tensor address minus base).
  inline std::uint8_t* GetBaseAddr(std::int8_t logicPos) {
    const Hardware hw = sim::hardware_of(static_cast<TPosition>(logicPos));
    if (hw == Hardware::GM) return nullptr;
    std::uint8_t* base = nullptr;
    std::uint32_t bytes = 0;
    sim::hw_region(hw, base, bytes);
    return base;
  }

  // SPM buffer in the workspace (the 910B has no L1 form): WriteSpmBuffer spills UB data into it and
  // ReadSpmBuffer brings it back, with DataCopy's rules (lengths and gaps in 32-byte blocks).
  template <typename T>
  void InitSpmBuffer(const GlobalTensor<T>& workspace, const std::int32_t bufferSize) { NPUKB_CALLER;
    if (bufferSize < 0) npukb::violation("TPipe::InitSpmBuffer", "bufferSize is negative", file, line);
    workspace.check_access(workspace.GetPhyAddr(), static_cast<std::size_t>(bufferSize), true, "TPipe::InitSpmBuffer",
                           file, line);
    spm_ = reinterpret_cast<std::uint8_t*>(workspace.GetPhyAddr());
    spm_bytes_ = static_cast<std::uint32_t>(bufferSize);
  }
  // The L1 form (no workspace): documented as unsupported on the Atlas A2/A3 training series (910B, 910_93).
  void InitSpmBuffer(const std::int32_t bufferSize) { NPUKB_CALLER;
    npukb::violation("TPipe::InitSpmBuffer", "InitSpmBuffer(bufferSize) (an SPM buffer in L1, " +
                     npukb::kern::num(bufferSize) + " bytes) is not supported on the Atlas A2/A3 training series: "
                     "use InitSpmBuffer(workspace, bufferSize) with a GM workspace", file, line);
  }
  template <typename T>
  void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const DataCopyParams& copyParams, std::int32_t writeOffset = 0) { NPUKB_CALLER;
    spm_copy("TPipe::WriteSpmBuffer", writeBuffer, copyParams, writeOffset, true, file, line);
  }
  template <typename T>
  void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const std::int32_t writeSize, std::int32_t writeOffset = 0) { NPUKB_CALLER;
    spm_copy("TPipe::WriteSpmBuffer", writeBuffer, contiguous(writeSize * static_cast<std::int32_t>(sizeof(T))), writeOffset,
             true, file, line);
  }
  template <typename T>
  void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const DataCopyParams& copyParams, std::int32_t readOffset = 0) { NPUKB_CALLER;
    spm_copy("TPipe::ReadSpmBuffer", readBuffer, copyParams, readOffset, false, file, line);
  }
  template <typename T>
  void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const std::int32_t readSize, std::int32_t readOffset = 0) { NPUKB_CALLER;
    spm_copy("TPipe::ReadSpmBuffer", readBuffer, contiguous(readSize * static_cast<std::int32_t>(sizeof(T))), readOffset,
             false, file, line);
  }

  // ---- simulator internals (not part of the AscendC API) ----
  // Bytes in use per hardware buffer (tests and diagnostics).
  std::uint32_t used_bytes(Hardware hw) const { return used_[static_cast<int>(hw)]; }
  // The next free byte of a hardware buffer (PopStackBuffer).
  std::uint32_t next_free(Hardware hw) const {
    const std::uint32_t a = sim::hw_align(hw);
    return (used_[static_cast<int>(hw)] + a - 1) / a * a;
  }

 private:
  void release_all() {
    npukb::kern::KState& s = npukb::kern::state();
    ++s.pipe_generation;
    for (auto& q : s.que_events) q = 0;
    for (auto& q : s.que_live) q = 0;
    for (auto& e : s.alloc_event_ids) e = 0;
    for (auto& u : used_) u = 0;
    for (auto& u : fixed_lo_) u = 0;
    for (auto& u : fixed_hi_) u = 0;
    buffers_ = 0;
    spm_ = nullptr;
    spm_bytes_ = 0;
  }
  template <class Q>
  bool init_at_addresses(Q& que, const long long* starts, const long long* lens, int n, const char* file, int line) {
    constexpr const char* api = "TPipe::InitBuffer";
    const Hardware hw = sim::hardware_of(que.pos);
    if (hw == Hardware::GM) {
      npukb::violation(api, std::string("a queue cannot live in GM (") + sim::position_name(que.pos) +
                       " is Global Memory on the Ascend 910B)", file, line);
    }
    sim::LocalLoc where;
    sim::hw_region(hw, where.base, where.region_bytes);
    where.hw = hw;
    where.pos = que.pos;
    const std::uint32_t align = sim::hw_align(hw);
    std::uint32_t addrs[sim::kMaxBuffers] = {};
    for (int i = 0; i < n; ++i) {
      const std::string which = "buffer " + npukb::kern::num(i) + " [" + npukb::kern::num(starts[i]) + ", " +
                                npukb::kern::num(starts[i] + lens[i]) + ")";
      if (starts[i] < 0 || lens[i] <= 0) {
        npukb::violation(api, which + ": the start address must not be negative and the length must be positive",
                         file, line);
      }
      if (starts[i] % align != 0) {
        npukb::violation(api, which + ": the start address is not " + npukb::kern::num(align) + "-byte aligned",
                         file, line);
      }
      if (starts[i] + lens[i] > static_cast<long long>(where.region_bytes)) {
        npukb::violation(api, which + " exceeds the " + npukb::kern::num(where.region_bytes) + "-byte " +
                         sim::hw_name(hw), file, line);
      }
      for (int j = 0; j < i; ++j) {
        if (starts[i] < starts[j] + lens[j] && starts[j] < starts[i] + lens[i]) {
          npukb::violation(api, which + " overlaps buffer " + npukb::kern::num(j) + " of the same queue", file, line);
        }
      }
      const int h = static_cast<int>(hw);
      if (static_cast<unsigned long long>(starts[i]) < used_[h]) {
        npukb::warning(api, which + " overlaps the " + npukb::kern::num(used_[h]) + " bytes of " + sim::hw_name(hw) +
                       " that InitBuffer without addresses handed out (the two forms are not meant to be mixed)",
                       file, line);
      }
      fixed_lo_[h] = fixed_hi_[h] == 0 || static_cast<std::uint32_t>(starts[i]) < fixed_lo_[h]
                         ? static_cast<std::uint32_t>(starts[i]) : fixed_lo_[h];
      const std::uint32_t end = static_cast<std::uint32_t>(starts[i] + lens[i]);
      fixed_hi_[h] = end > fixed_hi_[h] ? end : fixed_hi_[h];
      addrs[i] = static_cast<std::uint32_t>(starts[i]);
    }
    count_buffers(n, api, file, line);
    que.size(where, n, static_cast<std::uint32_t>(lens[0]), addrs, api, file, line);
    for (int i = 0; i < n; ++i) que.blen[i] = static_cast<std::uint32_t>(lens[i]);
    return true;
  }
  void require_live(const char* api, const char* file, int line) const {
    if (npukb::kern::state().live_pipe != this) {
      npukb::violation(api, "the TPipe was destroyed (Destroy) and not initialised again (Init)", file, line);
    }
  }
  static DataCopyParams contiguous(std::int32_t bytes) {
    DataCopyParams p;
    p.blockCount = 1;
    p.blockLen = static_cast<std::uint16_t>((bytes + 31) / 32);
    return p;
  }
  template <typename T>
  void spm_copy(const char* api, const LocalTensor<T>& t, const DataCopyParams& p, std::int32_t offset, bool to_spm,
                const char* file, int line) {
    if (spm_ == nullptr) npukb::violation(api, "no SPM buffer: call InitSpmBuffer(workspace, bufferSize) first", file, line);
    if (offset < 0) npukb::violation(api, "the SPM offset is negative", file, line);
    const std::uint64_t block = 32, len = static_cast<std::uint64_t>(p.blockLen) * block;
    const std::uint64_t spm_end = static_cast<std::uint64_t>(offset) +
                                  (p.blockCount == 0 ? 0 : (p.blockCount - 1) * (len + p.srcStride * block) + len);
    if (spm_end > spm_bytes_) {
      npukb::violation(api, "the copy reaches byte " + npukb::kern::num(static_cast<long long>(spm_end)) +
                       " of the " + npukb::kern::num(spm_bytes_) + "-byte SPM buffer", file, line);
    }
    const sim::LocalLoc& l = t.loc();
    const std::uint64_t ub_end = l.addr + (p.blockCount == 0 ? 0 : (p.blockCount - 1) * (len + p.dstStride * block) + len);
    if (l.base == nullptr || ub_end > l.region_bytes) {
      npukb::violation(api, "the copy runs past the end of its local buffer", file, line);
    }
    for (std::uint32_t b = 0; b < p.blockCount; ++b) {
      std::uint8_t* spm = spm_ + offset + b * (len + p.srcStride * block);
      std::uint8_t* ub = l.base + l.addr + b * (len + p.dstStride * block);
      if (to_spm) __builtin_memcpy(spm, ub, len); else __builtin_memcpy(ub, spm, len);
    }
    npukb::kern::KState& s = npukb::kern::state();
    const std::uint64_t bytes = static_cast<std::uint64_t>(p.blockCount) * len;
    const npukb::kern::Span span{l.addr, static_cast<std::uint32_t>(ub_end)};
    const double c = npukb::kern::dma_cycles(bytes, p.blockCount, to_spm, true);
    if (to_spm) {
      s.blk->gm_write_bytes += bytes;
      npukb::kern::schedule(npukb::PIPE_ID_MTE3, c, &span, 1, nullptr, 0);
    } else {
      s.blk->gm_read_bytes += bytes;
      npukb::kern::schedule(npukb::PIPE_ID_MTE2, c, nullptr, 0, &span, 1);
    }
  }
  // Out of line (the message's string building stays in the simulator's own function).
  [[gnu::noinline, gnu::cold]] static void warn_mixed(Hardware hw, std::uint64_t lo, std::uint64_t hi, const char* api,
                                                      const char* file, int line) {
    npukb::warning(api, std::string(sim::hw_name(hw)) + " bytes [" + npukb::kern::num(static_cast<long long>(lo)) +
                   ", " + npukb::kern::num(static_cast<long long>(hi)) + ") overlap the buffers that InitBuffer "
                   "placed at user addresses (the two forms are not meant to be mixed)", file, line);
  }
  sim::LocalLoc reserve(TPosition pos, std::uint64_t bytes, int nbuf, const char* api, const char* file, int line) {
    const Hardware hw = sim::hardware_of(pos);
    if (hw == Hardware::GM) {
      npukb::violation(api, std::string("a queue or buffer cannot live in GM (") + sim::position_name(pos) +
                       " is Global Memory on the Ascend 910B)", file, line);
    }
    sim::LocalLoc l;
    sim::hw_region(hw, l.base, l.region_bytes);
    const int h = static_cast<int>(hw);
    used_[h] = next_free(hw);
    if (used_[h] + bytes > l.region_bytes) {
      npukb::violation(api, std::string(sim::hw_name(hw)) + " overflow: " + sim::position_name(pos) + " buffer of " +
                       npukb::kern::num(static_cast<long long>(bytes)) + " bytes at offset " + npukb::kern::num(used_[h]) +
                       " exceeds the " + npukb::kern::num(l.region_bytes) + "-byte " + sim::hw_name(hw), file, line);
    }
    count_buffers(nbuf, api, file, line);
    if (fixed_hi_[h] != 0 && used_[h] < fixed_hi_[h] && used_[h] + bytes > fixed_lo_[h]) {
      warn_mixed(hw, used_[h], used_[h] + bytes, api, file, line);
    }
    l.addr = used_[h];
    l.hw = hw;
    l.pos = pos;
    used_[h] += static_cast<std::uint32_t>(bytes);
    return l;
  }

 public:
  // Every buffer a kernel sizes counts against the 64 of the device (TBufPools' included).
  void count_buffers(int nbuf, const char* api, const char* file, int line) {
    if (buffers_ + nbuf > sim::kMaxBuffers) {
      npukb::violation(api, "too many buffers: at most " + npukb::kern::num(sim::kMaxBuffers) + " per kernel", file, line);
    }
    buffers_ += nbuf;
  }

 private:
  std::uint32_t used_[static_cast<int>(Hardware::MAX)] = {};
  std::uint32_t fixed_lo_[static_cast<int>(Hardware::MAX)] = {};   // the span of InitBuffer's user addresses
  std::uint32_t fixed_hi_[static_cast<int>(Hardware::MAX)] = {};
  int buffers_ = 0;
  std::uint8_t* spm_ = nullptr;
  std::uint32_t spm_bytes_ = 0;
};

inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(const_cast<void*>(npukb::kern::state().live_pipe)); }

namespace sim {
inline void init_pool(PoolState& p, Hardware hw, std::uint32_t at, std::uint32_t len) {
  p.inited = true;
  p.gen = pipe_generation();
  p.range = Range{hw, at, at + len, at};
  p.ids = 0;
  p.cur_addr = at;
  p.cur_buf_size = 0;
  for (auto& s : p.slots) s = HandleSlot{&p, 0, 0};
}
inline void share_pool(PoolState& p, std::uint32_t len, const PoolState& shared, const char* api, const char* file,
                       int line) {
  if (!shared.inited || shared.gen != pipe_generation()) {
    npukb::violation(api, "the shared TBufPool was never initialised", file, line);
  }
  if (hardware_of(p.pos) != shared.range.hw) {
    npukb::violation(api, std::string("the pool and the shared pool lie in different memories (") +
                     hw_name(hardware_of(p.pos)) + ", " + hw_name(shared.range.hw) + ")", file, line);
  }
  if (len > shared.range.end - shared.range.begin) {
    npukb::violation(api, "length " + npukb::kern::num(len) + " exceeds the shared pool's " +
                     npukb::kern::num(shared.range.end - shared.range.begin) + " bytes", file, line);
  }
  init_pool(p, shared.range.hw, shared.range.begin, len);
}
template <class Q>
inline void size_queue_from_pool(PoolState& p, Q& que, std::uint8_t num, std::uint32_t len, const char* api,
                                 const char* file, int line) {
  if (num == 0) npukb::violation(api, "num must be at least 1", file, line);
  const std::uint32_t rlen = (len + 31u) / 32u * 32u;
  const Hardware hw = hardware_of(que.pos);
  const std::uint32_t at = pool_reserve(p, hw, static_cast<std::uint64_t>(rlen) * num, num, api, file, line);
  if (TPipe* pipe = GetTPipePtr()) pipe->count_buffers(num, api, file, line);
  sim::LocalLoc where;
  hw_region(hw, where.base, where.region_bytes);
  where.hw = hw;
  where.pos = que.pos;
  where.addr = at;
  std::uint32_t addrs[kMaxBuffers] = {};
  for (std::uint8_t i = 0; i < num; ++i) addrs[i] = at + static_cast<std::uint32_t>(i) * rlen;
  que.size(where, num, rlen, addrs, api, file, line);
}
template <class B>
inline void size_buf_from_pool(PoolState& p, B& buf, TPosition pos, std::uint32_t len, const char* api, const char* file,
                               int line) {
  if (buf.sized()) npukb::violation(api, "the TBuf was already initialised", file, line);
  const std::uint32_t rlen = (len + 31u) / 32u * 32u;
  const Hardware hw = hardware_of(pos);
  const std::uint32_t at = pool_reserve(p, hw, rlen, 1, api, file, line);
  if (TPipe* pipe = GetTPipePtr()) pipe->count_buffers(1, api, file, line);
  hw_region(hw, buf.loc_.base, buf.loc_.region_bytes);
  buf.loc_.addr = at;
  buf.loc_.hw = hw;
  buf.loc_.pos = pos;
  buf.len_ = rlen;
  buf.gen_ = pipe_generation();
  buf.inited_ = true;
}
}  // namespace sim

// The functions EXTERN_IMPL_BUFPOOL defines in a custom TBufPool class: the handle slots and the
// allocation cursor that the class's own InitBuffer manages (with TQue::InitStartBufHandle /
// InitBufHandle). TPipe::InitBufPool sizes it like a TBufPool.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                           \
 public:                                                                                                 \
  __aicore__ inline void Reset() { ::AscendC::sim::reset_custom_pool(npukbPool); }                       \
  __aicore__ inline void Init() {                                                                        \
    static_assert(::AscendC::sim::custom_pool_position(POSITION),                                        \
                  "EXTERN_IMPL_BUFPOOL: POSITION is VECIN, VECOUT, VECCALC, A1, B1 or C1");              \
    npukbPool.pos = POSITION;                                                                            \
    npukbPool.max_ids = BUFID_SIZE;                                                                      \
  }                                                                                                      \
  __aicore__ inline ::AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                 \
    if (offset >= npukbPool.max_ids || offset >= ::AscendC::sim::kMaxBufPoolIds) {                      \
      ::npukb::violation(#EXT_BUFPOOL "::GetBufHandle", "offset " + ::npukb::kern::num(offset) +         \
                         " is not below BUFID_SIZE " + ::npukb::kern::num(npukbPool.max_ids), nullptr, 0); \
    }                                                                                                    \
    return reinterpret_cast<::AscendC::TBufHandle>(&npukbPool.slots[offset]);                            \
  }                                                                                                      \
  __aicore__ inline void SetCurAddr(uint32_t curAddr) { npukbPool.cur_addr = curAddr; }                  \
  __aicore__ inline uint32_t GetCurAddr() { return npukbPool.cur_addr; }                                 \
  __aicore__ inline void SetCurBufSize(uint8_t curBufSize) { npukbPool.cur_buf_size = curBufSize; }      \
  __aicore__ inline uint8_t GetCurBufSize() { return npukbPool.cur_buf_size; }                           \
  ::AscendC::sim::PoolState npukbPool{POSITION, BUFID_SIZE}

// PopStackBuffer<T, pos>(tensor): the whole remaining space of pos's hardware buffer after the live
// TPipe's buffers, as a temporary tensor (not reserved: a later InitBuffer may take it). false without
// a TPipe.
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
  static_assert(std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::int16_t> ||
                    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int64_t> ||
                    std::is_same_v<T, std::uint64_t> || std::is_same_v<T, float> || std::is_same_v<T, half>,
                "PopStackBuffer: unsupported data type");
  TPipe* pipe = GetTPipePtr();
  const Hardware hw = sim::hardware_of(pos);
  if (pipe == nullptr || hw == Hardware::GM) return false;
  sim::LocalLoc l;
  sim::hw_region(hw, l.base, l.region_bytes);
  l.hw = hw;
  l.pos = pos;
  l.addr = pipe->next_free(hw);
  const std::uint32_t left = l.addr < l.region_bytes ? l.region_bytes - l.addr : 0;
  popLocal = LocalTensor<T>::make(l, left / static_cast<std::uint32_t>(sizeof(T)));
  return true;
}

// LocalMemAllocator<hard>: static-tensor programming without a TPipe: tensors handed out one after
// another from the start of one hardware buffer (start alignment of that buffer). One per hardware
// buffer per kernel.
#define NPUKB_ALLOC_BASIC "LocalMemAllocator::Alloc<DataType, tileSize> / Alloc<DataType>(tileSize): DataType must be a basic data type, not a TensorTrait (Alloc<TensorTraitType>() takes those)"
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX, "LocalMemAllocator: UB, L1, L0A, L0B, L0C, BIAS or FIXBUF");

 public:
  LocalMemAllocator() { NPUKB_CALLER;
    std::uint32_t& owners = npukb::kern::state().local_allocators;
    const std::uint32_t bit = 1u << static_cast<int>(hard);
    if (owners & bit) {
      npukb::violation("LocalMemAllocator", std::string("a second LocalMemAllocator of ") + sim::hw_name(hard) +
                       ": one per physical memory in a kernel", file, line);
    }
    owners |= bit;
  }
  std::uint32_t GetCurAddr() const { return cur_; }
  template <class DataType, std::uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    static_assert(!is_tensorTrait<DataType>::value, NPUKB_ALLOC_BASIC);
    return take<DataType>(default_pos(), tileSize);
  }
  template <TPosition pos, class DataType, std::uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    static_assert(!is_tensorTrait<DataType>::value, NPUKB_ALLOC_BASIC);
    static_assert(sim::hardware_of(pos) == hard, "LocalMemAllocator::Alloc: the position lies in another memory");
    return take<DataType>(pos, tileSize);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(std::uint32_t tileSize) {
    static_assert(!is_tensorTrait<DataType>::value, NPUKB_ALLOC_BASIC);
    return take<DataType>(default_pos(), tileSize);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(std::uint32_t tileSize) {
    static_assert(!is_tensorTrait<DataType>::value, NPUKB_ALLOC_BASIC);
    static_assert(sim::hardware_of(pos) == hard, "LocalMemAllocator::Alloc: the position lies in another memory");
    return take<DataType>(pos, tileSize);
  }
  // The TensorTrait form: the trait's position (in this allocator's memory) and the size of its Shape.
  template <class TensorTraitType>
  LocalTensor<TensorTraitType> Alloc() {
    static_assert(is_tensorTrait<TensorTraitType>::value,
                  "LocalMemAllocator::Alloc<T>() without a tileSize takes a TensorTrait type only");
    static_assert(sim::hardware_of(TensorTraitType::tPos) == hard,
                  "LocalMemAllocator::Alloc: the TensorTrait's position lies in another memory");
    return take<TensorTraitType>(TensorTraitType::tPos, sim::trait_shape_size<TensorTraitType>());
  }

 private:
  static constexpr TPosition default_pos() {
    switch (hard) {
      case Hardware::L1: return TPosition::A1;
      case Hardware::L0A: return TPosition::A2;
      case Hardware::L0B: return TPosition::B2;
      case Hardware::L0C: return TPosition::CO1;
      case Hardware::BIAS: return TPosition::C2;
      case Hardware::FIXBUF: return TPosition::C2PIPE2GM;
      default: return TPosition::VECCALC;
    }
  }
  template <class DataType>
  LocalTensor<DataType> take(TPosition pos, std::uint32_t tileSize) { NPUKB_CALLER;
    sim::LocalLoc l;
    sim::hw_region(hard, l.base, l.region_bytes);
    const std::uint32_t a = sim::hw_align(hard);
    const std::uint64_t at = (static_cast<std::uint64_t>(cur_) + a - 1) / a * a;
    const std::uint64_t end = at + static_cast<std::uint64_t>(tileSize) * sizeof(sim::lite_t<DataType>);
    if (end > l.region_bytes) {
      npukb::violation("LocalMemAllocator::Alloc", npukb::kern::num(tileSize) + " elements at address " +
                       npukb::kern::num(static_cast<long long>(at)) + " exceed the " + npukb::kern::num(l.region_bytes) +
                       "-byte " + sim::hw_name(hard), file, line);
    }
    l.addr = static_cast<std::uint32_t>(at);
    l.hw = hard;
    l.pos = pos;
    cur_ = static_cast<std::uint32_t>(end);
    return LocalTensor<DataType>::make(l, tileSize);
  }
  std::uint32_t cur_ = 0;
};
#undef NPUKB_ALLOC_BASIC

}  // namespace AscendC

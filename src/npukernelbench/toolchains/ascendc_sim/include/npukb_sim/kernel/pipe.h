// npukb_sim/kernel/pipe.h -- TPipe, TQue/TQueBind, TBuf with the real allocator's rules:
// buffer lengths rounded up to 32 bytes, one pool per hardware buffer (VECIN/VECOUT/VECCALC share the
// 196,608-byte UB; A1/B1/C1 live in L1; A2 in L0A, B2 in L0B, CO1 in L0C), at most 64 buffers per TPipe.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/tensor.h"

namespace AscendC {

class TPipe;

namespace sim {
constexpr int kMaxBuffers = 64;
constexpr int kHwPools = 6;

inline const char* position_name(TPosition p) {
  switch (p) {
    case TPosition::GM: return "GM";
    case TPosition::A1: return "A1";
    case TPosition::A2: return "A2";
    case TPosition::B1: return "B1";
    case TPosition::B2: return "B2";
    case TPosition::C1: return "C1";
    case TPosition::C2: return "C2";
    case TPosition::CO1: return "CO1";
    case TPosition::CO2: return "CO2";
    case TPosition::VECIN: return "VECIN";
    case TPosition::VECOUT: return "VECOUT";
    case TPosition::VECCALC: return "VECCALC";
    case TPosition::SPM: return "SPM";
    case TPosition::TSCM: return "TSCM";
    case TPosition::C2PIPE2GM: return "C2PIPE2GM";
    default: return "?";
  }
}

// TPosition -> physical buffer on the Ascend 910B (separated AIC/AIV architecture): C1 is L1, C2 the
// bias table, C2PIPE2GM the fixpipe buffer; CO2 and SPM are Global Memory there.
inline Hardware hardware_of(TPosition p) {
  switch (p) {
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return Hardware::L1;
    case TPosition::A2: return Hardware::L0A;
    case TPosition::B2: return Hardware::L0B;
    case TPosition::CO1: return Hardware::L0C;
    case TPosition::C2: return Hardware::BIAS;
    case TPosition::C2PIPE2GM: return Hardware::FIXBUF;
    case TPosition::GM: case TPosition::CO2: case TPosition::SPM: return Hardware::GM;
    default: return Hardware::UB;
  }
}

// Start-address alignment of each buffer (32 B UB/L1, 512 B L0A/L0B, 64 B L0C/BT/FB).
inline std::uint32_t hw_align(Hardware hw) {
  switch (hw) {
    case Hardware::L0A: case Hardware::L0B: return 512;
    case Hardware::L0C: case Hardware::BIAS: case Hardware::FIXBUF: return 64;
    default: return 32;
  }
}

inline void hw_region(Hardware hw, std::uint8_t*& base, std::uint32_t& bytes) {
  npukb::BlockState& b = npukb::block();
  std::uint8_t** slot;
  switch (hw) {
    case Hardware::L1: slot = &b.l1; bytes = static_cast<std::uint32_t>(npukb::kL1Bytes); break;
    case Hardware::L0A: slot = &b.l0a; bytes = static_cast<std::uint32_t>(npukb::kL0aBytes); break;
    case Hardware::L0B: slot = &b.l0b; bytes = static_cast<std::uint32_t>(npukb::kL0bBytes); break;
    case Hardware::L0C: slot = &b.l0c; bytes = static_cast<std::uint32_t>(npukb::kL0cBytes); break;
    case Hardware::BIAS: slot = &b.bt; bytes = static_cast<std::uint32_t>(npukb::kBiasTableBytes); break;
    case Hardware::FIXBUF: slot = &b.fb; bytes = static_cast<std::uint32_t>(npukb::kFixBufBytes); break;
    default: slot = &b.ub; bytes = static_cast<std::uint32_t>(npukb::kUbBytes); break;
  }
  base = *slot != nullptr ? *slot : npukb::lazy_buffer(slot, bytes);
}

inline const char* hw_name(Hardware hw) {
  switch (hw) {
    case Hardware::L1: return "L1";
    case Hardware::L0A: return "L0A";
    case Hardware::L0B: return "L0B";
    case Hardware::L0C: return "L0C";
    case Hardware::BIAS: return "BT (bias table)";
    case Hardware::FIXBUF: return "FB (fixpipe buffer)";
    default: return "UB";
  }
}

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

struct QueueBase {
  static constexpr int kMaxNum = kMaxBuffers;
  TPosition pos = TPosition::VECCALC;
  std::int32_t depth = 1;
  std::int32_t num = 0;
  std::uint32_t len = 0;  // bytes per buffer (rounded up to 32)
  sim::LocalLoc first{};  // location of buffer 0
  BufState st[kMaxNum] = {};
  std::int32_t fifo[kMaxNum] = {};
  std::int32_t head = 0, count = 0, next_alloc = 0;

  sim::LocalLoc loc_of(std::int32_t i) {
    sim::LocalLoc l = first;
    l.addr = first.addr + static_cast<std::uint32_t>(i) * len;
    l.owner = this;
    l.buf_idx = i;
    return l;
  }
  void require_init(const char* api, const char* file, int line) const {
    if (num == 0) npukb::violation(api, "the queue was never initialised (call pipe.InitBuffer(queue, num, len) first)", file, line);
  }
  sim::LocalLoc alloc(const char* file, int line) {
    require_init("TQue::AllocTensor", file, line);
    for (std::int32_t k = 0; k < num; ++k) {
      const std::int32_t i = (next_alloc + k) % num;
      if (st[i] == BufState::Free) {
        st[i] = BufState::Allocated;
        next_alloc = (i + 1) % num;
        sim::LocalLoc l = loc_of(i);
        if (l.hw == Hardware::UB) npukb::kern::wait_buffer_free(producer_pipe(pos), l.addr, l.addr + len);
        return l;
      }
    }
    npukb::violation("TQue::AllocTensor", "queue depth exceeded: all " + npukb::kern::num(num) +
                     " buffers of this " + position_name(pos) + " queue are still allocated (FreeTensor missing?); "
                     "on hardware this AllocTensor blocks forever", file, line);
  }
  void enque(const sim::LocalLoc& l, const char* file, int line) {
    require_init("TQue::EnQue", file, line);
    if (l.owner == nullptr) npukb::violation("TQue::EnQue", "the tensor was not allocated from a queue (AllocTensor)", file, line);
    QueueBase* o = l.owner;
    if (o->st[l.buf_idx] != BufState::Allocated && o->st[l.buf_idx] != BufState::Dequeued) {
      npukb::violation("TQue::EnQue", "the tensor's buffer is not allocated (already freed or already queued)", file, line);
    }
    const std::int32_t cap = depth > num ? depth : num;
    if (count >= cap) npukb::violation("TQue::EnQue", "queue full: " + npukb::kern::num(count) + " tensors already queued", file, line);
    o->st[l.buf_idx] = BufState::Queued;
    fifo[(head + count) % kMaxNum] = l.buf_idx;
    foreign[(head + count) % kMaxNum] = o;
    ++count;
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
    if (o->st[l.buf_idx] == BufState::Free) npukb::violation("TQue::FreeTensor", "double FreeTensor: the buffer is already free", file, line);
    if (o->st[l.buf_idx] == BufState::Queued) {
      npukb::violation("TQue::FreeTensor", "the tensor is still in a queue (EnQue without DeQue)", file, line);
    }
    o->st[l.buf_idx] = BufState::Free;
  }
  QueueBase* foreign[kMaxNum] = {};
};
}  // namespace sim

// TQueBind<src, dst, depth>: a queue of `num` buffers (InitBuffer) between two logical positions.
template <TPosition src, TPosition dst, std::int32_t depth, auto mask = 0>
class TQueBind : public sim::QueueBase {
 public:
  TQueBind() { this->pos = src == TPosition::GM ? dst : src; this->depth = depth; }

  template <typename T>
  LocalTensor<T> AllocTensor() { NPUKB_CALLER;
    return LocalTensor<T>::make(alloc(file, line), len / static_cast<std::uint32_t>(sizeof(T)));
  }
  template <typename T>
  void AllocTensor(LocalTensor<T>& tensor) { NPUKB_CALLER;
    tensor = LocalTensor<T>::make(alloc(file, line), len / static_cast<std::uint32_t>(sizeof(T)));
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) { NPUKB_CALLER;
    free(tensor.loc(), file, line);
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor) { NPUKB_CALLER;
    enque(tensor.loc(), file, line);
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue() { NPUKB_CALLER;
    return LocalTensor<T>::make(deque(file, line), len / static_cast<std::uint32_t>(sizeof(T)));
  }
  template <typename T>
  void DeQue(LocalTensor<T>& tensor) { NPUKB_CALLER;
    tensor = LocalTensor<T>::make(deque(file, line), len / static_cast<std::uint32_t>(sizeof(T)));
  }
  // The forms that name the user-visible source and destination positions (TQueBind<VECIN, VECOUT, ..>).
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  bool EnQue(const LocalTensor<T>& tensor) { NPUKB_CALLER;
    enque(tensor.loc(), file, line);
    return true;
  }
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  LocalTensor<T> DeQue() { NPUKB_CALLER;
    return LocalTensor<T>::make(deque(file, line), len / static_cast<std::uint32_t>(sizeof(T)));
  }
  bool VacantInQue() const { return count < depth; }
  bool HasTensorInQue() const { return count > 0; }
  std::int32_t GetTensorCountInQue() const { return count; }
  bool HasIdleBuffer() const {
    for (std::int32_t i = 0; i < num; ++i) if (st[i] == sim::BufState::Free) return true;
    return false;
  }
  void FreeAllEvent() {}
};

template <TPosition pos, std::int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// TBuf<pos>: one buffer used without queue synchronisation.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get() { NPUKB_CALLER;
    if (!inited_) return LocalTensor<T>::make(uninitialised_loc("TBuf::Get", file, line), 0);
    return LocalTensor<T>::make(loc_, len_ / static_cast<std::uint32_t>(sizeof(T)));
  }
  template <typename T>
  LocalTensor<T> Get(std::uint32_t len) { NPUKB_CALLER;
    if (!inited_) return LocalTensor<T>::make(uninitialised_loc("TBuf::Get", file, line), 0);
    if (static_cast<std::uint64_t>(len) * sizeof(T) > len_) {
      npukb::violation("TBuf::Get", "requested " + npukb::kern::num(len) + " elements (" +
                       npukb::kern::num(static_cast<long long>(len * sizeof(T))) + " bytes) but the buffer has " +
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
    if (static_cast<std::uint64_t>(bufOffset) + static_cast<std::uint64_t>(size) * sizeof(T) > len_) {
      npukb::violation("TBuf::GetWithOffset", "offset " + npukb::kern::num(bufOffset) + " + " +
                       npukb::kern::num(static_cast<long long>(size * sizeof(T))) + " bytes exceeds the buffer of " +
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
  LocalTensor<T> AllocTensor() { NPUKB_CALLER;
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
  LocalTensor<T> DeQue() { NPUKB_CALLER;
    return Get<T>();
  }

  // simulator internals
  sim::LocalLoc loc_{};
  std::uint32_t len_ = 0;
  bool inited_ = false;     // InitBuffer ran (a zero-length buffer is legal)

 private:
  void require_init(const char* api, const char* file, int line) const {
    if (!inited_) npukb::violation(api, "the TBuf was never initialised (call pipe.InitBuffer(buf, bytes) first)", file, line);
  }
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
    require_init(api, file, line);
    if (l.base != loc_.base || l.addr < loc_.addr || l.addr >= loc_.addr + len_) {
      npukb::violation(api, "the tensor does not lie in this TBuf", file, line);
    }
  }
};

class TPipe {
 public:
  TPipe() { npukb::kern::state().live_pipe = this; }
  ~TPipe() {
    npukb::kern::KState& s = npukb::kern::state();
    if (s.live_pipe == this) s.live_pipe = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition src, TPosition dst, std::int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, std::uint8_t num, std::uint32_t len) { NPUKB_CALLER;
    if (que.num != 0) npukb::violation("TPipe::InitBuffer", "the queue was already initialised", file, line);
    if (num == 0) npukb::violation("TPipe::InitBuffer", "num must be at least 1", file, line);
    // len 0 is accepted, as on the device: the buffers occupy no UB and any access to them is out of range.
    const std::uint32_t rlen = (len + 31u) / 32u * 32u;
    que.first = reserve(que.pos, static_cast<std::uint64_t>(rlen) * num, num, "TPipe::InitBuffer", file, line);
    que.num = num;
    que.len = rlen;
    return true;
  }

  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, std::uint32_t len) { NPUKB_CALLER;
    if (buf.inited_) npukb::violation("TPipe::InitBuffer", "the TBuf was already initialised", file, line);
    // len 0 is accepted, as on the device: the buffer occupies no UB and any access to it is out of range.
    const std::uint32_t rlen = (len + 31u) / 32u * 32u;
    buf.loc_ = reserve(pos, rlen, 1, "TPipe::InitBuffer", file, line);
    buf.len_ = rlen;
    buf.inited_ = true;
    return true;
  }

  void Reset() { for (auto& u : used_) u = 0; buffers_ = 0; }
  void Destroy() { Reset(); }
  void Init() {}

  template <HardEvent evt>
  TEventID AllocEventID() { return static_cast<TEventID>(next_event_++ % 8); }
  template <HardEvent evt>
  void ReleaseEventID(TEventID) {}
  template <HardEvent evt>
  TEventID FetchEventID() { return 0; }
  TEventID FetchEventID(HardEvent) { return 0; }

  // Bytes in use per hardware pool (tests and diagnostics).
  std::uint32_t used_bytes(Hardware hw) const { return used_[static_cast<int>(hw)]; }

 private:
  sim::LocalLoc reserve(TPosition pos, std::uint64_t bytes, int nbuf, const char* api, const char* file, int line) {
    const Hardware hw = sim::hardware_of(pos);
    if (hw == Hardware::GM) {
      npukb::violation(api, std::string("a queue or buffer cannot live in GM (") + sim::position_name(pos) +
                       " is Global Memory on the Ascend 910B)", file, line);
    }
    sim::LocalLoc l;
    sim::hw_region(hw, l.base, l.region_bytes);
    const int h = static_cast<int>(hw);
    used_[h] = (used_[h] + sim::hw_align(hw) - 1) / sim::hw_align(hw) * sim::hw_align(hw);
    if (used_[h] + bytes > l.region_bytes) {
      npukb::violation(api, std::string(sim::hw_name(hw)) + " overflow: " + sim::position_name(pos) + " buffer of " +
                       npukb::kern::num(static_cast<long long>(bytes)) + " bytes at offset " + npukb::kern::num(used_[h]) +
                       " exceeds the " + npukb::kern::num(l.region_bytes) + "-byte " + sim::hw_name(hw), file, line);
    }
    if (buffers_ + nbuf > sim::kMaxBuffers) {
      npukb::violation(api, "too many buffers: at most " + npukb::kern::num(sim::kMaxBuffers) + " per TPipe", file, line);
    }
    l.addr = used_[h];
    l.hw = hw;
    l.pos = pos;
    used_[h] += static_cast<std::uint32_t>(bytes);
    buffers_ += nbuf;
    return l;
  }
  std::uint32_t used_[static_cast<int>(Hardware::MAX)] = {};
  int buffers_ = 0;
  int next_event_ = 0;
};

inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(const_cast<void*>(npukb::kern::state().live_pipe)); }

}  // namespace AscendC

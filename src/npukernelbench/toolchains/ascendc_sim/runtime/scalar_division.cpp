// scalar_division.cpp -- integer division by zero in kernel code, as the device's scalar unit does it:
// no trap, a defined result. x86-64 traps (SIGFPE); the launcher's handler calls resume_division()
// for kernel threads, which completes the faulting DIV/IDIV with the RISC-V convention (quotient all
// ones, remainder = dividend; signed overflow MIN / -1 gives MIN, remainder 0) and resumes after it.
// Real kernels rely on it, e.g. `x % kLoops` computed before checking kLoops. Part of the ascendc-sim
// clean-room simulator.
#include <csignal>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__linux__)
#include <ucontext.h>
#endif

namespace npukb {

bool resume_division(void* context) {
#if defined(__x86_64__) && defined(__linux__)
  auto* uc = static_cast<ucontext_t*>(context);
  greg_t* r = uc->uc_mcontext.gregs;
  const auto* ip = reinterpret_cast<const std::uint8_t*>(r[REG_RIP]);
  std::size_t len = 0;
  bool op16 = false, rex_w = false;
  for (;; ++len) {                                   // prefixes
    const std::uint8_t p = ip[len];
    if (p == 0x66) op16 = true;
    else if (p == 0xF2 || p == 0xF3 || p == 0x2E || p == 0x3E || p == 0x26 || p == 0x64 || p == 0x65 || p == 0x36) continue;
    else if ((p & 0xF0) == 0x40) rex_w = (p & 0x08) != 0;
    else break;
  }
  const std::uint8_t opcode = ip[len++];
  if (opcode != 0xF6 && opcode != 0xF7) return false;
  const std::uint8_t modrm = ip[len++];
  const int reg = (modrm >> 3) & 7, mod = modrm >> 6, rm = modrm & 7;
  if (reg != 6 && reg != 7) return false;            // /6 DIV, /7 IDIV
  if (mod != 3 && rm == 4) {
    const std::uint8_t sib = ip[len++];
    if (mod == 0 && (sib & 7) == 5) len += 4;
  }
  if (mod == 1) len += 1;
  else if (mod == 2) len += 4;
  else if (mod == 0 && rm == 5) len += 4;
  const bool is_signed = reg == 7;
  if (opcode == 0xF6 || op16) return false;          // 8- and 16-bit division: not used by kernels
  if (rex_w) {
    const std::int64_t dividend = static_cast<std::int64_t>(r[REG_RAX]);
    const bool overflow = is_signed && dividend == INT64_MIN;
    r[REG_RAX] = overflow ? INT64_MIN : static_cast<greg_t>(~0ull);
    r[REG_RDX] = overflow ? 0 : dividend;
  } else {
    const std::uint32_t dividend = static_cast<std::uint32_t>(r[REG_RAX]);
    const bool overflow = is_signed && dividend == 0x80000000u;
    r[REG_RAX] = overflow ? 0x80000000u : 0xFFFFFFFFu;
    r[REG_RDX] = overflow ? 0 : dividend;
  }
  r[REG_RIP] += static_cast<greg_t>(len);
  return true;
#else
  (void)context;
  return false;
#endif
}

}  // namespace npukb

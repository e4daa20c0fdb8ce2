"""The F16C instructions the simulator uses where the machine has them (compiler.isa_flags) give the same
bits as the library conversions they replace: every half to float, a sweep of floats (with NaNs,
infinities, subnormals and ties) to half, and half arithmetic (up to which payload a NaN result of two NaN
operands keeps, the code generator's operand order). Only the speed differs."""

from __future__ import annotations

import subprocess

import pytest

from npukernelbench.toolchains.ascendc_sim import compiler as cc

PROGRAM = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
using half = _Float16;
static uint32_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
static uint16_t hbits(half h) { uint16_t u; std::memcpy(&u, &h, 2); return u; }
static half hof(uint16_t u) { half h; std::memcpy(&h, &u, 2); return h; }
static float fof(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
// Which NaN operand's payload an operation on two NaNs keeps is the code generator's choice of operand
// order (it changes with any flag); every NaN result counts as one value here.
static uint16_t nan_as_one(half h) { return h != h ? 0x7e00u : hbits(h); }
int main() {
  uint64_t sum = 0;
  for (uint32_t u = 0; u < 65536; ++u) sum = sum * 1000003u + fbits(static_cast<float>(hof(u)));
  std::printf("half->float %llu\n", (unsigned long long)sum);
  sum = 0;
  for (uint64_t u = 0; u <= 0xffffffffull; u += 65521) {            // every sign, exponent and many mantissas
    sum = sum * 1000003u + hbits(static_cast<half>(fof(static_cast<uint32_t>(u))));
  }
  const uint32_t special[] = {0x7f800000u, 0xff800000u, 0x7fc00001u, 0xffbfffffu, 0x33000000u, 0x33000001u,
                              0x387fc000u, 0x477fe000u, 0x477ff000u, 0x00000001u, 0x80000001u, 0x3f801000u};
  for (uint32_t s : special) sum = sum * 1000003u + hbits(static_cast<half>(fof(s)));
  std::printf("float->half %llu\n", (unsigned long long)sum);
  sum = 0;
  for (uint32_t a = 0; a < 65536; a += 251)
    for (uint32_t b = 0; b < 65536; b += 257) {
      half x = hof(a), y = hof(b);
      sum = sum * 1000003u + nan_as_one(static_cast<half>(x + y)) + 7u * nan_as_one(static_cast<half>(x * y));
    }
  std::printf("arithmetic %llu\n", (unsigned long long)sum);
}
"""


def _output(tmp_path, flags: tuple[str, ...], name: str) -> str:
    found = cc.find_compiler()
    if isinstance(found, str):
        pytest.fail(found, pytrace=False)
    (tmp_path / "p.cpp").write_text(PROGRAM, encoding="utf-8")
    subprocess.run([found.path, *cc.FLAGS, *flags, "p.cpp", "-o", name], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    return subprocess.run([str(tmp_path / name)], check=True, capture_output=True, text=True, timeout=120).stdout


def test_f16c_conversions_and_arithmetic_give_the_library_bits(tmp_path) -> None:
    found = cc.find_compiler()
    assert not isinstance(found, str), found
    if not cc.isa_flags(found):
        pytest.skip("this machine's CPU or compiler has no F16C: the simulator uses the library conversions only")
    library = _output(tmp_path, (), "library")
    assert library.count("\n") == 3
    assert _output(tmp_path, cc.isa_flags(found), "f16c") == library


def test_cpu_features_are_read_from_the_flags_line(tmp_path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx f16c fma\nbugs\t\t: f16c_x\n", encoding="utf-8")
    assert cc._cpu_has("f16c", str(info)) and not cc._cpu_has("avx512fp16", str(info))
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2\nbugs\t\t: f16c\n", encoding="utf-8")
    assert not cc._cpu_has("f16c", str(info))
    assert not cc._cpu_has("f16c", str(tmp_path / "missing"))

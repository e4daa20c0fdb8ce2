// Test-only helpers around the tiny single-process runtime (test_runtime.cpp) used by tests/sim_kernel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npukb_test {
// Register a host buffer as a GM tensor handed to the kernel (bounds-checked by check_gm).
void register_gm(void* ptr, std::size_t bytes);
// Run `fn` once per block, sequentially, each with fresh poisoned UB/L1. Returns the max finish cycles.
double run_blocks(int block_num, void (*fn)(void*), void* arg);
// The same on cores of `core_type` (npukb::CORE_AIV or npukb::CORE_AIC; run_blocks uses AIV).
double run_blocks_on(int core_type, int block_num, void (*fn)(void*), void* arg);
// Figures of the last block run.
struct Figures { double finish_cycles; double pipe_cycles[7]; std::uint64_t gm_read, gm_write; };
Figures last_figures();
std::vector<unsigned char> read_file(const std::string& path);
void write_file(const std::string& path, const void* data, std::size_t bytes);
}  // namespace npukb_test

namespace npukb_test {
// File-based I/O for pytest: inputs <dir>/in<i>.bin, outputs <dir>/out<i>.bin (dir = argv[1]).
void set_dir(const char* dir);
unsigned char* gm_input(int i, std::size_t* bytes = nullptr);   // registered GM, 512-byte aligned
unsigned char* gm_output(int i, std::size_t bytes);             // registered GM, poisoned (0xA5)
void save_outputs();
}  // namespace npukb_test
namespace npukb_test {
void print_cycles(double cycles);  // prints "cycles <n>" on stdout (outside the kernel printf macro)
}
namespace npukb_test {
void save_input_as_output(int i);  // write GM input i (after the run) to out<i>.bin
}

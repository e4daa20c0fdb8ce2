"""Queues synchronise as on hardware: AllocTensor of a buffer still in use waits (on the queue's
producer pipe) until the buffer's last reader or writer has finished, so single-buffered queues
serialise copy-in, compute and copy-out of consecutive tiles and double-buffered ones overlap them."""

from __future__ import annotations

import numpy as np
import pytest

TILE = 4096          # float elements per tile
TILES = 16

BODY = """
#include <cstdio>
constexpr uint32_t TILE = %(tile)d;
constexpr uint32_t TILES = %(tiles)d;
static uint8_t *gx, *gz;

class Kernel {
 public:
  void Init() {
    x.SetGlobalBuffer((__gm__ float*)gx, TILE * TILES);
    z.SetGlobalBuffer((__gm__ float*)gz, TILE * TILES);
    pipe.InitBuffer(in, %(depth)d, TILE * sizeof(float));
    pipe.InitBuffer(out, %(depth)d, TILE * sizeof(float));
  }
  void Process() {
    for (uint32_t i = 0; i < TILES; ++i) {
      LocalTensor<float> a = in.AllocTensor<float>();
      DataCopy(a, x[i * TILE], TILE);
      in.EnQue(a);
      LocalTensor<float> b = in.DeQue<float>();
      LocalTensor<float> c = out.AllocTensor<float>();
      Exp(c, b, TILE);
      out.EnQue(c);
      in.FreeTensor(b);
      LocalTensor<float> d = out.DeQue<float>();
      DataCopy(z[i * TILE], d, TILE);
      out.FreeTensor(d);
    }
  }
 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, %(depth)d> in;
  TQue<QuePosition::VECOUT, %(depth)d> out;
  GlobalTensor<float> x, z;
};

static void blk(void*) { Kernel k; k.Init(); k.Process(); }
void run_test() {
  gx = npukb_test::gm_input(0);
  gz = npukb_test::gm_output(0, TILE * TILES * sizeof(float));
  double cyc = npukb_test::run_blocks(1, blk, nullptr);
  npukb_test::Figures f = npukb_test::last_figures();
  std::printf("cycles %%f mte2 %%f v %%f mte3 %%f\\n", cyc, f.pipe_cycles[2], f.pipe_cycles[1], f.pipe_cycles[3]);
}
"""


def run(prog, depth: int) -> dict[str, float]:
    x = np.linspace(-2, 2, TILE * TILES, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(BODY % {"tile": TILE, "tiles": TILES, "depth": depth})
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_allclose(prog.output(0, np.float32), np.exp(x), rtol=1e-6)
    words = ran.stdout[ran.stdout.index("cycles "):].split()   # the kernel-side printf prefixes "[block n]"
    return dict(zip(words[0::2], map(float, words[1::2]), strict=True))


@pytest.fixture(scope="module")
def timings(tmp_path_factory, sim_cache) -> dict[int, dict[str, float]]:
    from simkit import Program

    return {d: run(Program(tmp_path_factory.mktemp(f"depth{d}"), sim_cache), d) for d in (1, 2)}


def test_double_buffering_overlaps_the_pipes(timings) -> None:
    two = timings[2]
    busiest = max(two["mte2"], two["v"], two["mte3"])
    # overlapped: little more than the busiest pipe, far less than the sum of all three
    assert two["cycles"] < 0.75 * (two["mte2"] + two["v"] + two["mte3"]), two
    assert two["cycles"] >= busiest


def test_single_buffering_serialises_the_pipes(timings) -> None:
    one, two = timings[1], timings[2]
    assert one["mte2"] == pytest.approx(two["mte2"]) and one["v"] == pytest.approx(two["v"])
    # every tile's copy-in waits for the previous tile's compute, whose output waits for its copy-out
    assert one["cycles"] >= TILES * (one["v"] / TILES + max(one["mte2"], one["mte3"]) / TILES) * 0.95, one
    assert one["cycles"] > 1.2 * two["cycles"], (one, two)


WAIT_BODY = """
#include <cstdio>
constexpr uint32_t N = 8192;
static uint8_t *gx, *gz;
static void blk(void*) {
  GlobalTensor<float> x, z;
  x.SetGlobalBuffer((__gm__ float*)gx, 2 * N);
  z.SetGlobalBuffer((__gm__ float*)gz, N);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> in;
  TBuf<QuePosition::VECCALC> work, other;
  pipe.InitBuffer(in, 1, N * sizeof(float));
  pipe.InitBuffer(work, N * sizeof(float));
  pipe.InitBuffer(other, N * sizeof(float));
  LocalTensor<float> a = in.AllocTensor<float>();
  DataCopy(a, x, N);                              // MTE2
  in.EnQue(a);
  LocalTensor<float> b = in.DeQue<float>();
  LocalTensor<float> w = work.Get<float>();
  for (int k = 0; k < 4; ++k) Exp(w, b, N);       // V reads the queue buffer for a long time
  in.FreeTensor(b);
  LocalTensor<float> again = in.AllocTensor<float>();   // the only buffer: MTE2 waits for V to free it
  LocalTensor<float> o = other.Get<float>();
  DataCopy(o, x[N], N);                           // MTE2 into other memory, held back all the same
  in.FreeTensor(again);
  PipeBarrier<PIPE_ALL>();
  DataCopy(z, w, N);
}
void run_test() {
  gx = npukb_test::gm_input(0);
  gz = npukb_test::gm_output(0, N * sizeof(float));
  npukb_test::run_blocks(1, blk, nullptr);
  npukb_test::Figures f = npukb_test::last_figures();
  std::printf("cycles %f mte2 %f v %f mte3 %f\\n", f.finish_cycles, f.pipe_cycles[2], f.pipe_cycles[1],
              f.pipe_cycles[3]);
}
"""


def test_alloc_tensor_holds_the_producer_pipe_until_the_buffer_is_free(prog) -> None:
    # on hardware AllocTensor's wait sits in the producer pipe's (MTE2's) queue: the copy into other
    # memory issued after it cannot overtake the vector work that still reads the queue's buffer
    x = np.linspace(-1, 1, 2 * 8192, dtype=np.float32)
    prog.inputs(x)
    ran = prog.run(WAIT_BODY)
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_allclose(prog.output(0, np.float32), np.exp(x[:8192]), rtol=1e-6)
    words = ran.stdout[ran.stdout.index("cycles "):].split()
    f = dict(zip(words[0::2], map(float, words[1::2]), strict=True))
    first_copy = f["mte2"] / 2
    assert f["v"] > first_copy, f            # the vector work outlasts a copy: overlap would hide it
    assert f["cycles"] >= f["mte2"] + f["v"] + f["mte3"] - 1e-6, f

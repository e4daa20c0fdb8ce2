"""Semantics of FeedsRepeat: y = feeds.repeat_interleave(feeds_repeat_times, dim=0), followed by
zero rows up to output_feeds_size rows. sum(feeds_repeat_times) <= output_feeds_size; counts >= 0."""

import numpy as np
import torch


def reference(feeds, feeds_repeat_times, output_feeds_size=0):
    rep = feeds.repeat_interleave(feeds_repeat_times.long(), dim=0)
    pad = torch.zeros((output_feeds_size - rep.shape[0], *feeds.shape[1:]), dtype=feeds.dtype)
    return torch.cat([rep, pad], dim=0)


def make_inputs(case, seed):
    """Counts in [0, 4] (zeros included), cut so that their sum fits output_feeds_size."""
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["feeds"])
    out_rows = int(case.attrs.get("output_feeds_size", 0))
    rng = np.random.default_rng(case_seed(seed, case.key()))
    feeds = rng.uniform(-10.0, 10.0, size=shape)
    times = rng.integers(0, 4, size=shape[0], endpoint=True)
    times = np.diff(np.minimum(np.cumsum(times), out_rows), prepend=0).astype(np.int32)
    return {"feeds": feeds, "feeds_repeat_times": times}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    f = draw(st.integers(1, 512))
    trailing = draw(st.lists(st.integers(1, 64), min_size=0, max_size=2))
    row = 1
    for n in trailing:
        row *= n
    out_rows = draw(st.integers(1, max(1, min(3 * f, (1 << 20) // row))))
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"feeds": [f, *trailing], "feeds_repeat_times": [f]}, "types": types,
            "attrs": {"output_feeds_size": out_rows}}

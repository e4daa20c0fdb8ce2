"""MultiKernelBench: the values a ``ModelNew`` passes its custom operator must come from the trial's
inputs or the operator's earlier outputs (data movement allowed, arithmetic not); parameters fixed at
init are allowed. Unit tests of ``provenance.foreign_call_input`` on hand-made call records, and end to
end through ``evaluate`` with answers built from the add example answer."""

import math

import pytest
import torch
from harness_paths import DATA

from npukernelbench.layouts.mkb.provenance import CallRecord, bits, foreign_call_input


def _trials(n: int = 3, shape: tuple[int, ...] = (4, 6),
            dtype: torch.dtype = torch.float32) -> list[list[torch.Tensor]]:
    out = []
    for t in range(n):
        g = torch.Generator().manual_seed(100 + t)
        out.append([torch.randn(shape, generator=g).to(dtype), torch.randn(shape, generator=g).to(dtype)])
    return out


def _run(trials, make_inputs, kernel=lambda ins: [ins[0][1].clone()], calls_per_trial=None, per_trial=1):
    """Call records of a ModelNew making ``per_trial`` calls per trial: call k's inputs are
    ``make_inputs(trial inputs, k, earlier outputs of the trial)``, its outputs ``kernel(inputs)``."""
    calls = []
    for values in trials:
        earlier: list[torch.Tensor] = []
        for k in range(per_trial):
            ins = [(str(j), x) for j, x in enumerate(make_inputs(values, k, earlier))]
            outs = kernel(ins)
            calls.append(CallRecord(inputs=ins, outputs=[o.reshape(-1) for o in outs]))
            earlier.extend(outs)
    counts = [per_trial] * len(trials) if calls_per_trial is None else calls_per_trial
    return foreign_call_input(calls, trials, counts)


def test_inputs_passed_as_they_are_pass():
    assert _run(_trials(), lambda v, k, e: [v[0], v[1]]) is None


def test_a_result_computed_in_pytorch_and_copied_fails_naming_the_call_and_argument():
    why = _run(_trials(), lambda v, k, e: [v[0] + v[1]])
    assert why is not None and why.startswith("operator call 0's argument 0 holds values computed outside the kernel")
    assert "trial 0" in why


def test_one_changed_element_is_enough_to_fail():
    def model(v, k, e):
        x = v[0].clone()
        x[2, 3] = x[2, 3] * 1.5
        return [v[1], x]
    why = _run(_trials(), model)
    assert why is not None and "argument 1" in why and "1 of 24 elements" in why


@pytest.mark.parametrize("move", [
    lambda x, y: x.t().contiguous(),
    lambda x, y: x.reshape(2, 12)[:, 3:],
    lambda x, y: torch.cat([y, x], dim=1),
    lambda x, y: torch.nn.functional.pad(x, (1, 2, 0, 3)),
    lambda x, y: torch.nn.functional.pad(x, (0, 5), value=-math.inf),
    lambda x, y: x.half(),
    lambda x, y: x.double(),
    lambda x, y: x.to(torch.int32),
    lambda x, y: x.flip(0).expand(2, 4, 6).contiguous(),
])
def test_data_movement_and_casts_pass(move):
    assert _run(_trials(), lambda v, k, e: [move(v[0], v[1])]) is None


def test_padding_with_a_value_not_in_the_padding_set_fails():
    assert _run(_trials(), lambda v, k, e: [torch.nn.functional.pad(v[0], (0, 5), value=1.0)]) is not None


def test_parameters_fixed_at_init_pass_but_arithmetic_on_inputs_with_them_fails():
    weight = torch.randn(4, 6)
    assert _run(_trials(), lambda v, k, e: [v[0], weight, -weight]) is None
    assert _run(_trials(), lambda v, k, e: [v[0] * weight]) is not None


def test_earlier_outputs_of_the_same_trial_are_sources():
    def model(v, k, e):
        return [v[0], v[1]] if k == 0 else [e[-1].flip(1), v[1]]
    assert _run(_trials(), model, kernel=lambda ins: [ins[0][1] + ins[1][1]], per_trial=2) is None
    # the second call's first argument is arithmetic on the first call's output: fails, named as call 1
    def computed(v, k, e):
        return [v[0], v[1]] if k == 0 else [e[-1] * 2, v[1]]
    why = _run(_trials(), computed, kernel=lambda ins: [ins[0][1] + ins[1][1]], per_trial=2)
    assert why is not None and why.startswith("operator call 1's argument 0")


def test_another_trials_values_are_not_sources():
    trials = _trials()
    previous = {0: trials[2][0]}

    def model(v, k, e):
        index = next(t for t, tv in enumerate(trials) if tv is v)
        return [previous.get(index, trials[index - 1][0])]
    why = _run(trials, model)
    assert why is not None and "operator call 0's argument 0" in why


def test_integer_and_bool_inputs_are_covered():
    trials = [[torch.randint(0, 50, (40,), generator=torch.Generator().manual_seed(t)),
               torch.rand(40, generator=torch.Generator().manual_seed(9 + t)) > 0.5] for t in range(3)]
    assert _run(trials, lambda v, k, e: [v[0].flip(0), v[1], v[0].to(torch.int64)]) is None
    why = _run(trials, lambda v, k, e: [v[0] + 1000])
    assert why is not None and "argument 0" in why
    # a bool tensor whose values (all True) are in the inputs: values can't tell data movement from compute
    assert _run(trials, lambda v, k, e: [v[1] | True]) is None


def test_nan_matches_nan_and_signed_zero_and_infinities_are_allowed():
    trials = _trials()
    for values in trials:
        values[0][0, 0] = math.nan
    pad = torch.tensor([0.0, -0.0, math.inf, -math.inf])
    assert _run(trials, lambda v, k, e: [torch.cat([v[0].reshape(-1), pad, torch.tensor([-math.nan])])]) is None
    assert bits(torch.tensor([math.nan])).item() == bits(torch.tensor([-math.nan])).item()


def test_different_call_counts_make_every_input_dependent():
    weight = torch.randn(4, 6)
    trials = _trials()
    calls = [CallRecord(inputs=[("0", v[0]), ("1", weight)], outputs=[v[0].reshape(-1)]) for v in trials]
    calls.append(CallRecord(inputs=[("0", trials[2][1])], outputs=[trials[2][1].reshape(-1)]))
    why = foreign_call_input(calls, trials, [1, 1, 2])
    assert why is not None and why.startswith("operator call 0's argument 1")
    assert foreign_call_input(calls[:3], trials, [1, 1, 1]) is None


def test_call_counts_that_do_not_add_up_check_every_input_against_every_trial():
    trials = _trials()
    calls = [CallRecord(inputs=[("0", v[0])], outputs=[v[0].reshape(-1)]) for v in trials]
    assert foreign_call_input(calls, trials, [5]) is None           # every trial's inputs are sources
    bad = [*calls, CallRecord(inputs=[("0", trials[0][0] * 3)], outputs=[])]
    why = foreign_call_input(bad, trials, [1, 1, 1])
    assert why is not None and "operator call 3's argument 0" in why and "any trial" in why


def test_tensor_lists_are_labelled_by_position():
    trials = _trials()
    calls = [CallRecord(inputs=[("0.0", v[0]), ("0.1", v[1] - 1)], outputs=[]) for v in trials]
    why = foreign_call_input(calls, trials, [1, 1, 1])
    assert why is not None and why.startswith("operator call 0's argument 0.1")


def test_millions_of_elements_are_checked_quickly():
    import time

    trials = _trials(shape=(1024, 2048))
    start = time.perf_counter()
    assert _run(trials, lambda v, k, e: [v[0].t().contiguous(), v[1]]) is None
    assert time.perf_counter() - start < 60       # about 5 s on one contended core


# -- end to end ------------------------------------------------------------------------------------------------

def _add_answer(model_src: str | None) -> dict[str, str]:
    """The add example answer, its model_src replaced by ``model_src`` (None: kept)."""
    from importlib import resources

    from npukernelbench.layouts.mkb import answer

    text = resources.files("npukernelbench.layouts.mkb").joinpath("example", "add_answer.py").read_text()
    files = answer.project_files(f"```python\n{text}```\n", "add_custom")
    if model_src is not None:
        files[answer.MODEL] = model_src
    return files


_HEAD = "import torch\nimport torch.nn.functional as F\nimport custom_ops_lib\n\nclass ModelNew(torch.nn.Module):\n"

MODELS = {
    "example": None,
    "computed_then_copied": _HEAD + (
        "    def forward(self, a, b):\n"
        "        return custom_ops_lib.add_custom(a + b, torch.zeros_like(a))\n"),
    "moved_only": _HEAD + (
        "    def forward(self, a, b):\n"
        "        n = a.numel()\n"
        "        ap = F.pad(a.reshape(-1), (0, 7))\n"
        "        bp = F.pad(b.reshape(-1), (0, 7))\n"
        "        c = custom_ops_lib.add_custom(ap.view(1, -1), bp.view(1, -1))\n"
        "        t = custom_ops_lib.add_custom(c.reshape(-1)[:n].view(a.shape).t().contiguous(),\n"
        "                                      torch.zeros(a.shape[1], a.shape[0]))\n"
        "        return custom_ops_lib.add_custom(t.t().contiguous(), torch.zeros_like(a))\n"),
    "parameters": _HEAD + (
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.w = None\n"
        "    def forward(self, a, b):\n"
        "        if self.w is None:     # fixed once (the trials share the shape)\n"
        "            self.w = torch.nn.Parameter(torch.randn_like(a), requires_grad=False)\n"
        "            self.minus_w = torch.nn.Parameter(-self.w.detach(), requires_grad=False)\n"
        "        t = custom_ops_lib.add_custom(a, self.w)\n"
        "        u = custom_ops_lib.add_custom(t, b)\n"
        "        return custom_ops_lib.add_custom(u, self.minus_w)\n"),
    # reads every trial's inputs from the file its process is given and makes the same calls in every
    # trial (each a PyTorch result copied by the kernel), returning the current trial's
    "reads_every_trial": _HEAD + (
        "    def forward(self, a, b):\n"
        "        trials = torch.load('state.pt', weights_only=True)['inputs']\n"
        "        outs = [custom_ops_lib.add_custom(x + y, torch.zeros_like(x)) for x, y in trials]\n"
        "        return next(o for o, (x, _) in zip(outs, trials) if torch.equal(x, a))\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "status", "message"), [
    ("example", "passed", ""),
    ("computed_then_copied", "wrong",
     "operator call 0's argument 0 holds values computed outside the kernel"),
    ("moved_only", "passed", ""),
    ("parameters", "passed", ""),
    ("reads_every_trial", "wrong", "holds values computed outside the kernel"),
])
def test_add_answers_end_to_end(name, status, message):
    from npukernelbench.cases import load_case
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.toolchains import toolchain_class

    spec = load_case(DATA / "mkb" / "reference" / "elementwise" / "add.py")
    files = _add_answer(MODELS[name])
    result = evaluate(spec, Completion(spec.case_id, 0, files=files), toolchain_class("ascendc-sim")(),
                      EvalOptions(shapes="static", data_seed=1, input_budget=4096))
    assert result.status.value == status, result.message
    assert message in result.message

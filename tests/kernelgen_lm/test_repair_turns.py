"""Multi-turn repair in GRPO rollouts (kernelgen_lm.repair_turns): a failing completion's feedback goes
to the policy, which answers again; the episode's reward is the final turn's reward discounted per
turn; infrastructure failures are never fed back; the trl wiring and bad settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen_lm.config import GRPOSettings, load_settings
from kernelgen_lm.repair_turns import PolicyResponder, discounted, run_episodes
from kernelgen_lm.rewards import RewardShaping, Scored
from npukernelbench.result import SampleResult, Status

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "harness"
VADD_DIR = ROOT / "tests" / "data" / "gxx_cases" / "level1" / "math" / "vadd"
ADD_CUSTOM = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"
VADD = "level1/math/vadd"
FAST = {"cases": [str(ADD_CUSTOM)], "include_eval_tasks": True, "device": "cpu", "max_steps": 1,
        "num_generations": 2, "global_batch_size": 2, "per_device_batch_size": 2, "max_completion_length": 8,
        "jobs": 1, "save_steps": 10, "cpu_threads": 1, "report_to": ["none"]}


def vadd_project(kernel_edit: tuple[str, str] | None = None) -> str:
    from npukernelbench.extract import render_files

    folder = VADD_DIR / "solution"
    files = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}
    if kernel_edit:
        files["op_kernel/vadd.cpp"] = files["op_kernel/vadd.cpp"].replace(*kernel_edit)
    return render_files(files)


def test_second_turn_sees_the_first_turns_diagnostics(tiny_model, tmp_path, monkeypatch) -> None:
    """The real pipeline (g++ test toolchain) judges a broken answer; the tiny model, as the policy,
    gets the conversation with the compiler's diagnostics and answers (noise: a parse error)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from kernelgen_lm.grpo import ExecutionReward
    from npukernelbench.cases import load_case

    monkeypatch.syspath_prepend(str(HARNESS))
    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    model.train()
    responder = PolicyResponder(model, AutoTokenizer.from_pretrained(tiny_model), max_new_tokens=8)
    reward = ExecutionReward({VADD: load_case(VADD_DIR)}, RewardShaping(speedup_weight=0),
                             toolchain="gxx_toolchain:GxxToolchain", jobs=1, scratch=tmp_path, log=lambda line: None,
                             turns=2, turn_discount=0.5, respond=responder)
    prompt = [{"role": "user", "content": "Write the vadd kernel."}]
    broken = vadd_project(("x[i] + y[i]", "x[i] + undeclared_name"))
    rewards = reward([prompt, prompt], [[{"role": "assistant", "content": broken}], vadd_project()],
                     task=[VADD, VADD])
    assert rewards == [pytest.approx(-1.0 * 0.5), 1.0]     # turn 2: parse error x 0.5; the good one passed at once
    assert len(responder.seen) == 1 and model.training       # only the failing one; training mode restored
    seen = responder.seen[0]
    assert [m["role"] for m in seen] == ["user", "assistant", "user"] and seen[1]["content"] == broken
    assert "the project did not build" in seen[2]["content"] and "undeclared_name" in seen[2]["content"]
    assert "error" in seen[2]["content"] and str(tmp_path) not in seen[2]["content"]
    assert reward.final_turns == {2: 1, 1: 1}


def result(status: Status, sample: int = 0) -> SampleResult:
    return SampleResult(VADD, 1, "math", sample, status, message=f"{status.value} report")


class Spec:
    case_id = VADD


def test_episodes_discount_and_infrastructure_failures() -> None:
    shaping = RewardShaping()
    plan = {"a1": Status.WRONG, "a2": Status.PASSED, "c1": Status.BUILD_ERROR}
    asked: list = []

    def score(batch):
        out = []
        for _, text in batch:
            if text in plan:
                out.append(Scored({Status.WRONG: 0.25, Status.PASSED: 1.0, Status.BUILD_ERROR: -0.5}[plan[text]],
                                  result(plan[text])))
            else:
                out.append(Scored(None, "infrastructure failure (not the kernel's fault): injected"))
        return out

    def respond(conversations):
        asked.extend(conversations)
        return ["a2" if "wrong report" in c[-1]["content"] else "c-infra" for c in conversations]

    items = [(Spec(), "a1"), (Spec(), "b-infra"), (Spec(), "c1")]
    episodes = run_episodes(["P", "P", "P"], items, score(items), score, respond, turns=3, gamma=0.9)
    assert [e.reward for e in episodes] == [pytest.approx(discounted(1.0, 2, 0.9)), None, -0.5]
    assert [e.final_turn for e in episodes] == [2, 1, 1]
    assert len(asked) == 2                          # b's failure was ours: never fed back, never asked
    assert all("infrastructure" not in m["content"] and "injected" not in m["content"] for c in asked for m in c)
    assert discounted(0.25, 3, 0.5) == 0.0625 and shaping.passed == 1.0
    one = run_episodes(["P"], items[:1], score(items[:1]), score, respond, turns=1, gamma=0.9)
    assert one[0].reward == 0.25 and len(asked) == 2                 # turns=1: the plain reward, nothing asked


def test_trainer_wires_the_policy_into_the_reward(tiny_model, tmp_path, monkeypatch) -> None:
    """trl's GRPOTrainer with turns=2: every completion is 'wrong' at turn 1 and passes at turn 2 (fake
    verdicts), so every reward is 1.0 x 0.8; the policy in memory answered the follow-ups."""
    from kernelgen_lm import rewards
    from kernelgen_lm.grpo import build_grpo_trainer

    def fake_scores(items, **_):
        return [Scored(1.0, result(Status.PASSED, i)) if text == "" or "did not pass" in text
                else Scored(0.25, result(Status.WRONG, i)) for i, (_, text) in enumerate(items)]

    answered = []

    def fake_respond(conversations):
        answered.extend(conversations)
        return ["did not pass"] * len(conversations)            # the fake judge passes these

    monkeypatch.setattr(rewards, "score_completions", fake_scores)
    settings = load_settings(GRPOSettings, data={"model": str(tiny_model), "output_dir": str(tmp_path / "o"),
                                                 **FAST, "turns": 2, "turn_discount": 0.8})
    trainer, reward, _ = build_grpo_trainer(settings, log=lambda line: None)
    assert isinstance(reward.respond, PolicyResponder) and reward.respond.model is trainer.model
    reward.respond = fake_respond
    trainer.train()
    logged = [h["reward"] for h in trainer.state.log_history if "reward" in h]
    assert logged and logged[0] == pytest.approx(0.8)
    assert len(answered) == 2 and all("output differs from the reference" in c[-1]["content"] for c in answered)


@pytest.mark.parametrize(("changes", "message"), [
    ({"turns": 0}, "turns: at least 1"),
    ({"turns": -3}, "turns: at least 1"),
    ({"turns": "two"}, "turns: expected an integer"),
    ({"turns": 1.5}, "turns: expected an integer"),
    ({"turn_discount": 0}, r"turn_discount: expected a number in \(0, 1\]"),
    ({"turn_discount": 1.5}, r"turn_discount: expected a number in \(0, 1\]"),
])
def test_bad_turn_settings_are_one_line_exit_2(tiny_model, tmp_path, capsys, changes, message) -> None:
    import re

    import yaml

    from kernelgen_lm.cli import main

    config = tmp_path / "bad.yaml"
    config.write_text(yaml.safe_dump({"model": str(tiny_model), "output_dir": str(tmp_path / "o"), **FAST,
                                      **changes}))
    assert main(["grpo", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(message, err), err


def test_cli_override_sets_turns(tiny_model, tmp_path) -> None:
    import yaml

    config = tmp_path / "grpo.yaml"
    config.write_text(yaml.safe_dump({"model": str(tiny_model), "output_dir": str(tmp_path / "o"), **FAST}))
    settings = load_settings(GRPOSettings, config, ["--turns", "3", "--turn_discount=0.5"])
    assert (settings.turns, settings.turn_discount) == (3, 0.5)
    assert load_settings(GRPOSettings, config).turns == 1

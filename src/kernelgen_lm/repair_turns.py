"""Multi-turn repair in GRPO rollouts (``turns`` > 1 in GRPOSettings): the feedback loop of
``npukb evaluate --npukb-turns`` run inside the reward function, with the current policy.

trl's ``GRPOTrainer`` generates one completion per prompt and asks the reward functions to score it;
it has no notion of a conversation that continues. So the extra turns happen in the reward
function: a completion that does not pass gets the follow-up message of the benchmark
(``npukernelbench.feedback``: its own build diagnostics, runtime or mismatch report, bounded and
scrubbed) and the *current* policy answers again (:class:`PolicyResponder`: transformers
``generate`` on the model being trained, gradients off), up to ``turns`` turns; a passing turn ends
the episode. The episode's reward is the shaped reward of its final turn t discounted by
``turn_discount`` ** (t - 1), and it is the reward of the first completion, the one trl computes the
loss on: the policy learns to write first answers that pass, or that its own repairs fix quickly.
The repair turns themselves are not trained on (no loss on their tokens).

An infrastructure failure never becomes feedback nor a reward: at turn 1 the completion gets None (trl
leaves it out of the advantage); at a later turn the episode ends at its last judged turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kernelgen_lm.rewards import Scored

Messages = tuple[dict[str, str], ...]
Respond = Callable[[list[Messages]], list[str]]
Score = Callable[[list[tuple[Any, str]]], list[Scored]]


def discounted(reward: float, turn: int, gamma: float) -> float:
    """The reward of turn ``turn`` (1-based) as the episode's reward: ``reward * gamma ** (turn - 1)``."""
    return reward * gamma ** (turn - 1)


@dataclass(frozen=True)
class Episode:
    reward: float | None                 # the discounted reward of the final judged turn; None: no outcome
    judged: tuple[Scored, ...]           # the judged turns, in order
    answers: tuple[str, ...]             # the answer of each judged turn

    @property
    def final_turn(self) -> int:
        return len(self.judged)


def as_messages(prompt: Any) -> Messages:
    """A trl prompt (chat messages or plain text) as chat messages."""
    if isinstance(prompt, str):
        return ({"role": "user", "content": prompt},)
    return tuple({"role": str(m["role"]), "content": str(m.get("content") or "")} for m in prompt)


def run_episodes(prompts: Sequence[Any], items: Sequence[tuple[Any, str]], first: Sequence[Scored], score: Score,
                 respond: Respond | None, turns: int, gamma: float) -> list[Episode]:
    """Continue every judged, failing completion for up to ``turns`` turns. ``first``: the scores of
    ``items`` (spec, text); ``score`` judges a batch of (spec, text); ``respond`` answers a batch of
    conversations with the policy."""
    from npukernelbench.feedback import follow_up_messages
    from npukernelbench.generators.base import Completion

    answers = [[text] for _, text in items]
    judged = [[s] for s in first]
    live = [i for i, s in enumerate(first) if s.reward is not None and not _passed(s)]
    for _turn in range(2, turns + 1):
        if not live or respond is None:
            break
        conversations = [follow_up_messages(
            as_messages(prompts[i]),
            [(Completion(items[i][0].case_id, 0, text=a), s.outcome) for a, s in zip(answers[i], judged[i],
                                                                                      strict=True)],
            turns) for i in live]
        texts = respond(conversations)
        scored = score([(items[i][0], text) for i, text in zip(live, texts, strict=True)])
        still = []
        for i, text, s in zip(live, texts, scored, strict=True):
            if s.reward is None:          # our machinery failed: the episode ends at its last judged turn
                continue
            answers[i].append(text)
            judged[i].append(s)
            if not _passed(s):
                still.append(i)
        live = still
    return [Episode(None if js[0].reward is None else discounted(js[-1].reward, len(js), gamma),  # type: ignore[arg-type]
                    tuple(js), tuple(ans)) for js, ans in zip(judged, answers, strict=True)]


def _passed(scored: Scored) -> bool:
    return not isinstance(scored.outcome, str) and scored.outcome.passed


class PolicyResponder:
    """Answers conversations with a transformers model in memory (the policy being trained): chat
    template, sampling settings of the run, no gradients; ``seen`` keeps every conversation asked."""

    def __init__(self, model: Any, tokenizer: Any, max_new_tokens: int, temperature: float = 1.0,
                 top_p: float = 1.0) -> None:
        self.model, self.tokenizer = model, tokenizer
        self.max_new_tokens, self.temperature, self.top_p = max_new_tokens, temperature, top_p
        self.seen: list[Messages] = []

    def __call__(self, conversations: list[Messages]) -> list[str]:
        import torch

        self.seen.extend(conversations)
        model = self.model
        training = model.training
        model.eval()
        out = []
        try:
            with torch.no_grad():
                for conversation in conversations:
                    out.append(self._one(conversation))
        finally:
            model.train(training)
        return out

    def _one(self, conversation: Messages) -> str:
        tok = self.tokenizer
        text = tok.apply_chat_template([dict(m) for m in conversation], add_generation_prompt=True, tokenize=False)
        ids = tok(text, return_tensors="pt", add_special_tokens=False)["input_ids"].to(self.model.device)
        sample = self.temperature > 0
        kwargs: dict[str, Mapping[str, Any] | Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": sample,
                                                      "pad_token_id": tok.pad_token_id or tok.eos_token_id}
        if sample:
            kwargs.update(temperature=self.temperature, top_p=self.top_p)
        output = self.model.generate(input_ids=ids, attention_mask=ids.new_ones(ids.shape), **kwargs)
        return tok.decode(output[0, ids.shape[1]:], skip_special_tokens=True)

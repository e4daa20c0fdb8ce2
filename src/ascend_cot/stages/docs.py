"""Documentation CoT: chunk the docs, then "generate, retrieve, answer".

For each chunk the teacher writes questions covering its technical points (API-call questions for
API reference pages); BM25 fetches supporting chunks for each question (the chunk itself first);
the teacher answers with reasoning, the passages given as background only. Answers holding a
complete op project are built; the rest are ``not_applicable``.
"""

from __future__ import annotations

from ascend_cot import prompts
from ascend_cot.context import StageContext, StageResult
from ascend_cot.documents import DocsError
from ascend_cot.sample import Drop, Sample, chat
from ascend_cot.teacher import Ask
from ascend_cot.teacher_output import MalformedOutput, drop_reason, questions, reasoning_and_answer

STAGE = "docs"


def run(ctx: StageContext) -> StageResult:
    cfg = ctx.config.stages.docs
    chunks = ctx.chunks()
    if not chunks:
        raise DocsError(f"no documentation files matching {', '.join(cfg.include)} under "
                        f"{', '.join(str(p) for p in cfg.paths)}")
    selected = chunks[:cfg.max_chunks] if cfg.max_chunks else chunks
    result = StageResult()
    asks = [Ask(f"docs.questions:{c.id}", prompts.doc_questions(c, cfg.questions_per_chunk)) for c in selected]
    jobs = []
    for chunk, ask, reply in zip(selected, asks, ctx.teacher.ask(asks), strict=True):
        origin = f"docs/{'api' if chunk.api else 'guide'}:{chunk.id}"
        try:
            found = questions(reply.text, cfg.questions_per_chunk)
        except MalformedOutput as exc:
            result.drops.append(Drop(STAGE, "docs", drop_reason(reply.text), origin, detail=f"questions: {exc}",
                                     text=reply.text))
            continue
        for i, question in enumerate(found):
            background = [chunk, *ctx.index().search(question, cfg.retrieve_k - 1, exclude=chunk.id)]
            answer_ask = Ask(f"docs.answer:{chunk.id}#q{i}", prompts.doc_answer(question, background))
            jobs.append((origin, question, ask, answer_ask))
    replies = ctx.teacher.ask([job[3] for job in jobs])
    for (origin, question, q_ask, a_ask), reply in ctx.bar(list(zip(jobs, replies, strict=True)), "docs: verify"):
        try:
            reasoning, answer = reasoning_and_answer(reply.text, require_answer_tag=True)
        except MalformedOutput as exc:
            result.drops.append(Drop(STAGE, "docs", drop_reason(reply.text), origin, detail=f"answer: {exc}",
                                     text=reply.text))
            continue
        verification, _ = ctx.verifier.verify_answer(answer, None)
        result.samples.append(Sample(chat(None, question, reasoning, answer), "docs", origin, "",
                                     verification.verified,
                                     ctx.provenance([q_ask.messages, a_ask.messages]), verification.message))
    return result

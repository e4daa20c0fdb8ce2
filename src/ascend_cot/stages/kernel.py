"""Kernel-level CoT: for each source file of an operator project, the teacher writes the concise
request the file answers plus targeted design questions; then the reasoning from request to file,
and reasoned answers to the design questions.

The request -> file sample's answer is code: it is verified by the project it belongs to (the case's
checks when the project is a case's solution, else a build). Design answers are verified when they
hold a complete op project, else ``not_applicable``.
"""

from __future__ import annotations

import fnmatch

from ascend_cot import prompts
from ascend_cot.context import StageContext, StageResult
from ascend_cot.projects import OpProject, case_projects, folder_projects, load_cases
from ascend_cot.sample import Drop, Sample, chat
from ascend_cot.teacher import Ask
from ascend_cot.teacher_output import (
    MalformedOutput,
    drop_reason,
    questions,
    reasoning_and_answer,
    reasoning_only,
    request,
)
from ascend_cot.verification import Verification

STAGE = "kernel"


def _verify(ctx: StageContext, project: OpProject) -> Verification:
    if project.spec is not None:
        return ctx.verifier.verify_case(project.spec, project.files)
    return ctx.verifier.verify_build(project.files)


def run(ctx: StageContext) -> StageResult:
    cfg = ctx.config.stages.kernel
    projects = case_projects(load_cases(cfg.cases)) if cfg.cases else []
    projects += folder_projects(cfg.projects)
    targets = [(p, path) for p in projects for path in p.files
               if any(fnmatch.fnmatch(path, pat) for pat in cfg.files)]
    if cfg.max_files:
        targets = targets[:cfg.max_files]
    result = StageResult()
    asks = [Ask(f"kernel.request:{p.name}/{path}", prompts.kernel_request(p.name, path, p.files,
                                                                          cfg.questions_per_file))
            for p, path in targets]
    jobs: list[tuple[str, OpProject, str, Ask, Ask, str]] = []      # kind, project, path, first ask, ask, question
    for (project, path), ask, reply in zip(targets, asks, ctx.teacher.ask(asks), strict=True):
        origin = f"kernel:{project.name}/{path}"
        try:
            req = request(reply.text)
        except MalformedOutput as exc:
            result.drops.append(Drop(STAGE, "kernel", drop_reason(reply.text), origin, project.task,
                                     f"request: {exc}", reply.text))
            continue
        text = project.files[path]
        jobs.append(("request", project, path, ask,
                     Ask(f"kernel.reasoning:{project.name}/{path}", prompts.kernel_reasoning(req, path, text)), req))
        if cfg.questions_per_file > 0:
            try:
                found = questions(reply.text, cfg.questions_per_file)
            except MalformedOutput as exc:
                result.drops.append(Drop(STAGE, "kernel", drop_reason(reply.text), origin, project.task,
                                         f"design questions: {exc}", reply.text))
                found = []
            for i, q in enumerate(found):
                jobs.append(("design", project, path, ask,
                             Ask(f"kernel.design:{project.name}/{path}#q{i}",
                                 prompts.kernel_design_answer(q, path, text)), q))
    replies = ctx.teacher.ask([job[4] for job in jobs])
    verified: dict[str, Verification] = {}
    for (kind, project, path, first, ask, text_in), reply in ctx.bar(list(zip(jobs, replies, strict=True)),
                                                                      "kernel: verify"):
        origin = f"kernel:{project.name}/{path}" + ("" if kind == "request" else "#design")
        source = project.files[path]
        try:
            if kind == "request":
                reasoning = reasoning_only(reply.text)
                answer = prompts.fence(path, source)
            else:
                reasoning, answer = reasoning_and_answer(reply.text, require_answer_tag=True)
        except MalformedOutput as exc:
            result.drops.append(Drop(STAGE, "kernel", drop_reason(reply.text), origin, project.task,
                                     f"{kind}: {exc}", reply.text))
            continue
        if kind == "request":
            if project.name not in verified:
                verified[project.name] = _verify(ctx, project)
            verification = verified[project.name]
            user = prompts.kernel_student_request(text_in, path)
        else:
            verification, _ = ctx.verifier.verify_answer(answer, project.spec)
            user = prompts.kernel_student_design(text_in, path, source)
        result.samples.append(Sample(chat(None, user, reasoning, answer), "kernel", origin, project.task,
                                     verification.verified, ctx.provenance([first.messages, ask.messages]),
                                     verification.message))
    return result

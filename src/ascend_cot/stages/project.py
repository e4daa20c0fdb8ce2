"""Project-level CoT: each case is split into scenarios (one static case: one shape, one dtype
binding); the simulator runs the op's real tiling function for the ground truth (block dim, tiling
key, tiling fields, workspace). The teacher gets the instruction, the kernel and host source, the
test case and the hardware, and returns reasoning plus a JSON summary of the tiling values; a summary
that disagrees with the ground truth drops the sample.

The kept sample teaches project generation: the benchmark's project-level prompt for that scenario,
answered by the reasoning (ending with the verified tiling summary) and the verified project.
"""

from __future__ import annotations

import dataclasses

from ascend_cot import prompts
from ascend_cot.context import StageContext, StageResult
from ascend_cot.ground_truth import GroundTruthError, mismatches, tiling_truth
from ascend_cot.projects import load_cases
from ascend_cot.sample import Drop, Sample, assistant_turn
from ascend_cot.teacher import Ask
from ascend_cot.teacher_output import MalformedOutput, drop_reason, json_summary, reasoning_only

STAGE = "project"


def run(ctx: StageContext) -> StageResult:
    from npukernelbench.extract import render_files
    from npukernelbench.prompt import PromptOptions, build_messages, describe_case
    from npukernelbench.shapes import static_cases

    cfg = ctx.config.stages.project
    hardware = PromptOptions(project_level=True).hardware
    result = StageResult()
    jobs = []
    specs = [s for s in load_cases(cfg.cases) if s.solution]
    scenarios = [(spec, i, case) for spec in specs
                 for i, case in enumerate(static_cases(spec)[:cfg.max_scenarios or None])]
    for spec, i, case in ctx.bar(scenarios, "project: ground truth"):
        origin = f"project:{spec.case_id}#static[{i}]"
        try:
            truth = tiling_truth(spec, case, ctx.verifier.toolchain)
        except GroundTruthError as exc:
            result.drops.append(Drop(STAGE, "project", "ground_truth_failed", origin, spec.case_id, str(exc)))
            continue
        scenario = describe_case(spec, spec.cases[i])
        ask = Ask(f"project.tiling:{spec.case_id}#static[{i}]",
                  prompts.project_teacher(spec.description.strip(), dict(spec.solution), scenario, hardware.describe()))
        jobs.append((spec, i, origin, truth, ask))
    replies = ctx.teacher.ask([job[4] for job in jobs])
    for (spec, i, origin, truth, ask), reply in zip(jobs, replies, strict=True):
        try:
            reasoning = reasoning_only(reply.text)
            claim = json_summary(reply.text.split("</think>")[-1])
        except MalformedOutput as exc:
            result.drops.append(Drop(STAGE, "project", drop_reason(reply.text), origin, spec.case_id, str(exc),
                                     reply.text))
            continue
        wrong = mismatches(truth, claim, cfg.float_rel_tol)
        if wrong:
            result.drops.append(Drop(STAGE, "project", "tiling_mismatch", origin, spec.case_id,
                                     "; ".join(wrong[:6]) + (f" (+{len(wrong) - 6} more)" if len(wrong) > 6 else ""),
                                     reply.text, {"truth": truth.summary(), "claim": claim}))
            continue
        verification = ctx.verifier.verify_case(spec, spec.solution)
        scenario_spec = dataclasses.replace(spec, cases=(spec.cases[i],))
        student = build_messages(scenario_spec, PromptOptions(project_level=True))
        think = f"{reasoning}\n\nTiling for this case:\n{prompts.summary_json(truth.summary())}"
        answer = assistant_turn(think, render_files(dict(spec.solution)))
        messages = (*student, {"role": "assistant", "content": answer})
        result.samples.append(Sample(messages, "project", origin, spec.case_id, verification.verified,
                                     ctx.provenance([ask.messages]), verification.message))
    return result

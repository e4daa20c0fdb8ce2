"""Each stage's building blocks on small inputs, the live-teacher example through a real ``npukb serve``,
and the error stage from Python on a run directory."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ascend_cot.config import DedupConfig, GeneralSource
from ascend_cot.decontamination import BenchmarkIndex
from ascend_cot.dedup import deduplicate
from ascend_cot.documents import load_chunks
from ascend_cot.ground_truth import TilingTruth, mismatches
from ascend_cot.retrieval import Bm25Index
from ascend_cot.sample import Provenance, Sample, Verified, chat
from ascend_cot.stages.errors import signature
from ascend_cot.stages.general import language, to_messages
from ascend_cot.teacher_output import MalformedOutput, json_summary, questions, reasoning_and_answer

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "ascend_cot"
ADD_CUSTOM = REPO / "benchmark_cases" / "level1" / "math" / "add_custom"


def _sample(text: str, answer: str = "ok") -> Sample:
    return Sample(chat(None, text, "some reasoning here", answer), "docs", "o", "", Verified.NOT_APPLICABLE,
                  Provenance("", "", ""))


def test_docs_chunking_and_bm25_retrieval(tmp_path):
    (tmp_path / "guide.md").write_text("# Queues\n\n" + "TQue EnQue DeQue double buffering pipeline. " * 20
                                       + "\n\n# Copies\n\n" + "DataCopyPad moves bytes between GM and UB. " * 20)
    (tmp_path / "page.html").write_text("<html><head><style>x{}</style></head><body><h1>Cast</h1>"
                                        "<p>Cast converts element types with a RoundMode such as CAST_RINT.</p>"
                                        "<script>alert(1)</script></body></html>")
    chunks = load_chunks([tmp_path], ("*.md", "*.html"), ("*.html",), chunk_chars=600)
    assert {c.path for c in chunks} == {"guide.md", "page.html"}
    assert all(len(c.text) <= 600 for c in chunks if c.path == "guide.md")
    html = next(c for c in chunks if c.path == "page.html")
    assert html.api and "alert" not in html.text and "CAST_RINT" in html.text
    found = Bm25Index(chunks).search("how do I convert types with a rounding mode", 1)
    assert found and found[0].path == "page.html"


def test_teacher_output_readers():
    assert reasoning_and_answer("<think>because of the 32-byte block rule</think><answer>A</answer>") == \
        ("because of the 32-byte block rule", "A")
    with pytest.raises(MalformedOutput, match="no <think>"):
        reasoning_and_answer("just an answer")
    with pytest.raises(MalformedOutput, match="<answer>"):
        reasoning_and_answer("<think>long enough reasoning text here</think> A", require_answer_tag=True)
    assert questions("<question>a?</question><question>a?</question><question>b?</question>", 5) == ["a?", "b?"]
    assert json_summary('x <think>{"no": 1}</think> ```json\n{"block_dim": 4}\n```') == {"block_dim": 4}
    with pytest.raises(MalformedOutput):
        json_summary("no json here")


def test_tiling_summary_comparison():
    truth = TilingTruth(8, 1, 0, {"n": 10, "scale": 0.5, "inner": {"arr": [1, 2]}})
    good = {"block_dim": 8, "tiling_key": 1, "workspace_bytes": 0, "tiling": {"n": 10, "scale": 0.5,
                                                                              "inner": {"arr": [1, 2]}}}
    assert mismatches(truth, good) == []
    bad = json.loads(json.dumps(good))
    bad["tiling"]["inner"]["arr"] = [1, 3]
    bad["tiling"]["extra"] = 1
    del bad["block_dim"]
    problems = mismatches(truth, bad)
    assert any("block_dim: missing" in p for p in problems)
    assert any("tiling.inner.arr[1]: claimed 3, true value 2" in p for p in problems)
    assert any("tiling.extra: not a member" in p for p in problems)


def test_decontamination_flags_copies_not_boilerplate():
    held_out = "\n".join(f"int held_out_value_{i} = compute_{i}(x, y) * {i};" for i in range(60))
    boiler = "#include \"kernel_operator.h\"\nusing namespace AscendC;\nconstexpr int32_t BUFFER_NUM = 2;\n"
    index = BenchmarkIndex([held_out, *(boiler + f"// file {i}\nvoid f{i}();" for i in range(6))], 13, 4)
    copy = index.overlap("Here is my kernel:\n" + held_out[: len(held_out) // 2])
    assert copy.run >= 40 and copy.share > 0.5
    clean = index.overlap(boiler + "void mine(int a) { return a + 1; } // an original kernel of my own")
    assert clean.matched == 0


def test_exact_and_near_duplicates():
    base = " ".join(f"word{i}" for i in range(200))
    samples = [_sample(base), _sample(base), _sample(base + " extra"), _sample("something else entirely " * 5)]
    kept, removed = deduplicate(samples, DedupConfig(near_threshold=0.8))
    assert len(kept) == 2
    assert [r[1] for r in removed] == ["duplicate_exact", "duplicate_near"]


def test_general_normalisation_and_language():
    src = GeneralSource(path="x.jsonl")
    msgs = to_messages({"prompt": "Ｑ：２＋２？", "reasoning": "add", "response": "4"}, src)
    assert msgs[0]["content"] == "Q:2+2?" and msgs[1]["content"].startswith("<think>\nadd\n</think>")
    assert to_messages({"prompt": "q", "response": "a"}, src) == "no_reasoning"
    assert to_messages({"prompt": "q", "response": "a"}, src, require_reasoning=False)[1]["content"].startswith(
        "<think>\n</think>")
    assert language("Why does ice float on water? Because it is less dense than liquid water.") == "en"
    assert language("正方形四条边相等，边长等于周长除以四，面积等于边长乘以边长。") == "zh"
    assert language("La glace flotte sur l'eau parce qu'elle est moins dense que l'eau liquide.") == "fr"
    assert language("```python\ndef f(x):\n    return x\n```") is None


def test_error_signatures_cluster_by_shape_not_names():
    a = "op_kernel/a.cpp:3:5: error: 'foo' was not declared in this scope\n"
    b = "op_kernel/b.cpp:9:1: error: 'bar' was not declared in this scope\n"
    c = "op_kernel/a.cpp:3:5: error: expected ';' before '}' token\n"
    assert signature(a) == signature(b) != signature(c)
    assert signature(a).startswith("scope_lifetime:")


def test_general_stage_with_tokenizer_and_perplexity(tiny_model, tmp_path):
    from ascend_cot.build import build

    config = tmp_path / "g.yaml"
    config.write_text(f"tokenizer: {tiny_model}\nstages:\n  docs: {{enabled: false}}\n  kernel: {{enabled: false}}\n"
                      "  project: {enabled: false}\n  errors: {enabled: false}\n  general:\n"
                      f"    sources: [{{path: '{EXAMPLES / 'general.jsonl'}'}}]\n"
                      f"    perplexity_model: {tiny_model}\n    max_perplexity: 1000000000.0\n    min_tokens: 30\n"
                      "decontamination: {enabled: false}\n")
    loose = build(config, tmp_path / "loose", progress=False, log=lambda m: None)
    assert loose.stats["kept_by_source"]["general"] > 0
    assert "tokens (" in loose.stats["tokens"]["unit"]
    strict = build(config, tmp_path / "strict", progress=False, log=lambda m: None,
                   overrides=["stages.general.max_perplexity=1.5"])
    assert "general" not in strict.stats["kept_by_source"]
    # perplexity filtering runs inside the stage, before deduplication: the duplicate is dropped there too
    assert strict.stats["drops"]["perplexity"] == \
        loose.stats["kept_by_source"]["general"] + loose.stats["drops"]["duplicate_exact"]


def test_live_teacher_through_npukb_serve(served_model, tiny_model, tmp_path):
    """The second example: the tiny model behind ``npukb serve`` writes garbage; the pipeline runs end to
    end and says what it dropped and why."""
    from ascend_cot.build import build

    work = tmp_path / "ex"
    shutil.copytree(EXAMPLES, work)
    config = work / "live.yaml"
    config.write_text(config.read_text().replace("../../", f"{REPO}/"))
    outcome = build(config, tmp_path / "out", progress=False, log=lambda m: None,
                    overrides=[f"teacher.model={served_model.url}", f"tokenizer={tiny_model}",
                               f"stages.general.perplexity_model={tiny_model}"])
    stats = outcome.stats
    assert stats["runtime"]["teacher_requests"] > 0
    assert stats["drops"].get("malformed_teacher_output", 0) > 0
    assert set(stats["drops_by_stage"]) >= {"docs", "kernel", "project", "errors"}
    assert (tmp_path / "out" / "teacher" / "responses.jsonl").is_file()
    again = build(config, tmp_path / "out", progress=False, log=lambda m: None,
                  overrides=[f"teacher.model={served_model.url}", f"tokenizer={tiny_model}",
                             f"stages.general.perplexity_model={tiny_model}", "mix.general=0"])
    assert again.stats["runtime"]["teacher_requests"] == 0     # every stage resumed


def test_error_cot_from_python_on_a_run_directory(tmp_path):
    """What training code calls: failing samples of an npukb run directory -> verified debug samples."""
    from ascend_cot.stages.errors import error_cot
    from npukernelbench.cases import load_case
    from npukernelbench.generators.base import Completion
    from npukernelbench.generators.mutants import mutate
    from npukernelbench.result import SampleResult, Status
    from npukernelbench.store import RunDir

    spec = load_case(ADD_CUSTOM)
    broken, _ = mutate(dict(spec.solution), spec.kernel, spec.case_id, 2, 0)
    run = RunDir(tmp_path / "run")
    run.create(fresh=True)
    run.write_completions([Completion(spec.case_id, 0, files=broken)])
    diag = "op_kernel/add_custom.cpp:83:48: error: no matching function for call to 'DeQue()'\n"
    run.append_result(SampleResult(spec.case_id, 1, "Math", 0, Status.BUILD_ERROR, message="[api_signature] ...",
                                   details={"diagnostics": diag}))
    fix = [json.loads(line) for line in (EXAMPLES / "teacher.jsonl").open()
           if "errors.api:mutant:level1/math/add_custom#2" in line][0]["completion"]
    replay = tmp_path / "teacher.jsonl"
    replay.write_text(json.dumps({"task": f"errors.api:run:run/{spec.case_id}#0", "completion": fix}) + "\n")
    result = error_cot(tmp_path / "run", f"replay:{replay}", tmp_path / "cot", cases=[ADD_CUSTOM.parents[2]],
                       kernel_debug=False)
    assert [s.source for s in result.samples] == ["api_debug"]
    assert result.samples[0].verified is Verified.PASSED and result.samples[0].task == spec.case_id
    assert "no matching function" in result.samples[0].messages[0]["content"]


def test_a_fix_restating_only_the_kernel_file_is_merged_into_the_project() -> None:
    from ascend_cot.stages.errors import _merged

    original = {"op_host/x.cpp": "// host\n", "op_kernel/x.cpp": "// broken kernel\n"}
    answer = "The kernel forgot a cast.\n\n=== op_kernel/x.cpp ===\n```cpp\n// fixed kernel\n```\n"
    assert _merged(original, answer) == {"op_host/x.cpp": "// host\n", "op_kernel/x.cpp": "// fixed kernel\n"}
    assert _merged(original, "no code at all") is None

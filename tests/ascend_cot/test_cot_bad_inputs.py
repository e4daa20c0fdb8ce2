"""Bad inputs a user can cause: one clear line, exit status 2, and nothing already built is lost."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ascend_cot.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "ascend_cot"
TINY = EXAMPLES / "tiny.yaml"


def _config(tmp_path: Path, text: str) -> Path:
    for name in ("teacher.jsonl", "general.jsonl"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "c.yaml"
    path.write_text(TINY.read_text().replace("../../", str(EXAMPLES.parents[1]) + "/") + text)
    return path


def _run(args: list[str], capsys) -> tuple[int, str]:
    code = main(args)
    err = capsys.readouterr().err.strip()
    return code, err


def test_missing_docs_folder(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text("teacher: {model: replay:x.jsonl}\nstages:\n  docs: {paths: [no/such/docs]}\n"
                      "  kernel: {enabled: false}\n  project: {enabled: false}\n  general: {enabled: false}\n"
                      "  errors: {enabled: false}\n")
    code, err = _run(["build", str(config), "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and len(err.splitlines()) == 1
    assert "stages.docs.paths[0]" in err and "does not exist" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("yaml_text, key", [
    ("stages:\n  docs:\n    chunk_charz: 10\n", "stages.docs.chunk_charz: unknown key"),
    ("teacher:\n  modle: x\n", "teacher.modle: unknown key"),
    ("mix: {docz: 1}\n", "mix.docz: unknown source"),
    ("stages:\n  docs:\n    max_chunks: lots\n", "stages.docs.max_chunks: expected an integer"),
])
def test_unknown_keys_and_wrong_types(tmp_path, capsys, yaml_text, key):
    config = tmp_path / "c.yaml"
    config.write_text(yaml_text)
    code, err = _run(["build", str(config), "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and key in err and len(err.splitlines()) == 1


def test_unknown_override_key(tmp_path, capsys):
    code, err = _run(["build", str(TINY), "--out", str(tmp_path / "o"), "--set", "mix.nope=1"], capsys)
    assert code == 2 and "mix.nope" in err


def test_unreachable_teacher_keeps_finished_stages(tiny_build, tmp_path, capsys):
    out = tmp_path / "out"
    shutil.copytree(tiny_build.out / "work", out / "work")
    before = {p.name: p.read_bytes() for p in (out / "work").iterdir()}
    code, err = _run(["build", str(TINY), "--out", str(out), "--no-progress",
                      "--set", "teacher.model=http://127.0.0.1:9/v1#teacher", "--set", "teacher.max_retries=0"], capsys)
    assert code == 2 and "teacher unreachable" in err.splitlines()[-1]
    assert {p.name: p.read_bytes() for p in (out / "work").iterdir()} == before


def test_malformed_teacher_output_is_dropped_with_its_text(tmp_path):
    from ascend_cot.build import build

    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text(json.dumps({"task": "docs.questions:api_desc.md#0", "completion": "Sure! Here you go."}) + "\n")
    config = tmp_path / "c.yaml"
    config.write_text(
        f"teacher: {{model: 'replay:{garbage}'}}\n"
        f"stages:\n  docs: {{paths: ['{EXAMPLES.parents[1]}/benchmark_cases/level1/math/add_custom/api_desc.md'], "
        "api_reference: [api_desc.md]}\n  kernel: {enabled: false}\n  project: {enabled: false}\n"
        "  general: {enabled: false}\n  errors: {enabled: false}\n")
    outcome = build(config, tmp_path / "out", progress=False, log=lambda m: None)
    assert outcome.samples == 0
    drops = [json.loads(line) for line in (tmp_path / "out" / "drops.jsonl").open()]
    assert drops[0]["reason"] == "malformed_teacher_output" and drops[0]["text"] == "Sure! Here you go."
    assert "no <question>" in drops[0]["detail"]


def test_stats_of_a_folder_that_is_no_build(tmp_path, capsys):
    code, err = _run(["stats", str(tmp_path)], capsys)
    assert code == 2 and "not a finished ascend-cot build" in err

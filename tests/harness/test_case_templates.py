"""The templates of a ``case.toml`` task are generated from its declarations
(``layouts/case_toml/templates.py``): parameter types, dtype columns, ValueDepend, attributes and the
kernel signature follow the spec; a leftover ``template/`` folder is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from npukernelbench.layouts.case_toml.templates import attr_value
from npukernelbench.spec import SpecError, load_spec

CASE = '''op = "MixOp"
kernel = "mix_op"
level = 2
category = "Test"

[types]
T = ["float16", "float32"]
U = ["int32", "int64"]

[[inputs]]
name = "xs"
dtype = "T"
kind = "list"

[[inputs]]
name = "bias"
dtype = "T"
optional = true

[[inputs]]
name = "idx"
dtype = "U"
value_depend = true
partial_read = true

[[outputs]]
name = "y"
dtype = "T"
kind = "list"

[[attrs]]
name = "alpha"
type = "float"
default = 1e-05

[[attrs]]
name = "mode"
type = "str"
default = "a\\"b"

[[attrs]]
name = "dims"
type = "list_int"

[[attrs]]
name = "keep"
type = "bool"
default = false

[[cases]]
shapes = { xs = [[4]], idx = [1] }
types = { T = "float16", U = "int32" }
attrs = { dims = [0] }
'''

HOST_BODY = '''        this->Input("xs")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("idx")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT64, ge::DT_INT32, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .ValueDepend(REQUIRED);
        this->Output("y")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1e-05);
        this->Attr("mode").AttrType(OPTIONAL).String("a\\"b");
        this->Attr("dims").AttrType(REQUIRED).ListInt();
        this->Attr("keep").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc);
'''


def write(tmp_path: Path, text: str = CASE) -> Path:
    folder = tmp_path / "mix_op"
    folder.mkdir()
    (folder / "case.toml").write_text(text)
    (folder / "reference.py").write_text("def reference(xs, bias, idx, **attrs):\n    return xs\n")
    (folder / "api_desc.md").write_text("# MixOp\n")
    return folder


def test_templates_follow_the_spec(tmp_path) -> None:
    spec = load_spec(write(tmp_path))
    assert sorted(spec.templates) == ["op_host/mix_op.cpp", "op_kernel/mix_op.cpp"]
    host = spec.templates["op_host/mix_op.cpp"]
    assert "class MixOp : public OpDef {" in host and host.endswith("OP_ADD(MixOp);\n}  // namespace ops\n")
    assert HOST_BODY in host
    assert 'extern "C" __global__ __aicore__ void mix_op(GM_ADDR xs, GM_ADDR bias, GM_ADDR idx, GM_ADDR y, ' \
           'GM_ADDR workspace, GM_ADDR tiling)\n{\n    // TODO: implement the kernel.\n}\n' \
           in spec.templates["op_kernel/mix_op.cpp"]


def test_explicit_type_combos_give_the_columns(tmp_path) -> None:
    text = CASE.replace("[[inputs]]", '[[type_combos]]\nT = "float32"\nU = "int64"\n\n[[inputs]]', 1)
    host = load_spec(write(tmp_path, text)).templates["op_host/mix_op.cpp"]
    assert ".DataType({ge::DT_INT64})\n            .Format({ge::FORMAT_ND})\n" \
           "            .ValueDepend(REQUIRED);" in host


def test_value_depend_is_for_inputs_only(tmp_path) -> None:
    text = CASE.replace('name = "y"\n', 'name = "y"\nvalue_depend = true\n')
    with pytest.raises(SpecError, match=r"outputs\[0\]\.value_depend': unknown field"):
        load_spec(write(tmp_path, text))


def test_a_template_folder_is_refused(tmp_path) -> None:
    folder = write(tmp_path)
    (folder / "template" / "op_host").mkdir(parents=True)
    with pytest.raises(SpecError, match="template/ is not read any more"):
        load_spec(folder)


@pytest.mark.parametrize("value, text", [
    (True, "true"), (-3, "-3"), (0.5, "0.5"), (1e-08, "1e-08"), ("a\\b", '"a\\\\b"'), ([1, 2], "{1, 2}"), ([], "{}"),
])
def test_attribute_defaults_as_cpp(value, text) -> None:
    assert attr_value(value) == text


def test_attribute_defaults_without_a_cpp_literal_are_refused() -> None:
    with pytest.raises(ValueError, match="no C\\+\\+ literal"):
        attr_value(float("inf"))

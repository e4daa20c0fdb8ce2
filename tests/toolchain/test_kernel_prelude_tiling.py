"""The kernel prelude defines every tiling class registered for the op, also under a tiling-key name
(``REGISTER_TILING_DATA_CLASS(Op_100, ...)``), as real kernels read them with
GET_TILING_DATA_WITH_STRUCT; classes of other ops stay out."""

from __future__ import annotations

from npukernelbench.toolchains.ascendc_sim.kernel_prelude import Description, Field, TilingClass, tiling_structs


def _cls(name: str) -> TilingClass:
    return TilingClass(name=name, size=4, align=4, builtin=False,
                       fields=(Field(name="n", kind="scalar", offset=0, elem_size=4, count=1, type="uint32_t"),))


def _desc(registered: dict[str, str]) -> Description:
    return Description(registered=registered, classes={n: _cls(n) for n in ("Base", "Keyed", "Foreign")}, opdefs=())


def test_classes_registered_under_tiling_keys_are_defined() -> None:
    text, top = tiling_structs(_desc({"Op": "optiling::Base", "Op_100": "optiling::Keyed",
                                      "Op_200": "optiling::Keyed", "Other_1": "optiling::Foreign"}), "Op")
    assert top == "Base"
    assert text.count("struct Base {") == 1 and text.count("struct Keyed {") == 1
    assert "Foreign" not in text


def test_only_keyed_registrations_leave_get_tiling_data_undefined() -> None:
    text, top = tiling_structs(_desc({"Op_0": "Keyed"}), "Op")
    assert top is None and "struct Keyed {" in text


def test_an_op_whose_name_is_a_prefix_of_another_does_not_take_its_classes() -> None:
    text, top = tiling_structs(_desc({"Op": "Base", "OpGrad": "Foreign"}), "Op")
    assert top == "Base" and "Foreign" not in text

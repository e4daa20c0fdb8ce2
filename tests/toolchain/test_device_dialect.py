"""device_dialect: the launch chevrons of host-side launch wrappers are blanked, nothing else moves."""

from __future__ import annotations

from npukernelbench.toolchains.ascendc_sim.device_dialect import rewrite

WRAPPER = """void k_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x) {
    k<<<blockDim, l2ctrl, stream>>>(x);
    // k<<<1, nullptr, nullptr>>>(x) in a comment stays
    const char* s = "<<<not code>>>";
    std::vector<std::vector<std::vector<int>>> nested;
}
"""


def test_launch_chevrons_are_blanked_in_place() -> None:
    out = rewrite(WRAPPER, "AIV")
    lines = out.text.splitlines()
    assert out.launches == 1
    assert lines[1].strip() == "k                              (x);"
    assert len(out.text) == len(WRAPPER) and out.text.count("\n") == WRAPPER.count("\n")
    assert lines[2] == WRAPPER.splitlines()[2] and lines[3] == WRAPPER.splitlines()[3]
    assert "std::vector<std::vector<std::vector<int>>> nested;" in lines[4]


def test_launch_config_with_nested_parentheses() -> None:
    out = rewrite("f<<<GetBlockNum(), (void*)0, s>>>(a, b);", "AIV")
    assert out.launches == 1 and out.text.replace(" ", "") == "f(a,b);"


def test_code_without_chevrons_is_unchanged() -> None:
    src = "int a = b << 3; auto t = x >> 2;\n"
    out = rewrite(src, "AIV")
    assert out.text == src and out.launches == 0

"""Semantics of Muls: y = x * value"""


def reference(x, value):
    return x * value

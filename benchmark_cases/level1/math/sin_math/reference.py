"""Semantics of SinMath: y = sin(x)"""


def reference(x):
    return x.sin()

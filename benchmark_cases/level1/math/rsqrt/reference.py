"""Semantics of Rsqrt: y = 1 / sqrt(x)"""


def reference(x):
    return x.rsqrt()

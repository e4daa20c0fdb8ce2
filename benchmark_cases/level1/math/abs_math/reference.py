"""Semantics of AbsMath: y = |x|"""


def reference(x):
    return x.abs()

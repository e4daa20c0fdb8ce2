"""Semantics of IsFinite: y = isfinite(x)"""


def reference(x):
    return x.isfinite()

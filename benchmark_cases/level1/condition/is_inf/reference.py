"""Semantics of IsInf: y = isinf(x)"""


def reference(x):
    return x.isinf()

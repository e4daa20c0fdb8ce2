"""Semantics of Sqrt: y = sqrt(x)"""


def reference(x):
    return x.sqrt()

"""Semantics of Neg: y = -x"""


def reference(x):
    return -x

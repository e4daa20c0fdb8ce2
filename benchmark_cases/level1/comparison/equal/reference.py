"""Semantics of Equal: y = x1 == x2"""


def reference(x1, x2):
    return x1 == x2

"""Semantics of CosMath: y = cos(x)"""


def reference(x):
    return x.cos()

"""Semantics of TanhMath: y = tanh(x)"""


def reference(x):
    return x.tanh()

"""Semantics of Sscal: y = alpha * x (BLAS sscal)"""


def reference(x, alpha):
    return x * alpha

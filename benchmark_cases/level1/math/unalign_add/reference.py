"""Semantics of UnalignAdd: z = x + y on unaligned shapes"""


def reference(x, y):
    return x + y

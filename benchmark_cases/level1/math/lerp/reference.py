"""Semantics of Lerp: y = start + weight * (end - start)"""


def reference(start, end, weight):
    return start + weight * (end - start)

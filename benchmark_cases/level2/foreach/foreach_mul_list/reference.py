"""Semantics of ForeachMulList: y_i = x1_i * x2_i."""



def reference(x1, x2):
    return [a * b for a, b in zip(x1, x2, strict=True)]

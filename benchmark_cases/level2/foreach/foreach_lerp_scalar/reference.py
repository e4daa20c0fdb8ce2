"""Semantics of ForeachLerpScalar: y_i = x1_i + weight * (x2_i - x1_i)."""



def reference(x1, x2, weight):
    weight = float(weight[0])
    return [a + weight * (b - a) for a, b in zip(x1, x2, strict=True)]

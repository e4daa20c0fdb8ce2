"""Semantics of ForeachAddcmulScalar: y_i = x1_i + scalar * x2_i * x3_i."""



def reference(x1, x2, x3, scalar):
    scalar = float(scalar[0])
    s = scalar
    return [a + s * b * c for a, b, c in zip(x1, x2, x3, strict=True)]

"""Semantics of ForeachAddcmulList: y_i = x1_i + scalars[i] * x2_i * x3_i (scalars: a device tensor)."""



def reference(x1, x2, x3, scalars):
    return [a + s * b * c for (a, b, c), s in zip(zip(x1, x2, x3, strict=True), scalars.tolist(), strict=True)]

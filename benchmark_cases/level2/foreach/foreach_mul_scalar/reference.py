"""Semantics of ForeachMulScalar: y_i = x_i * scalar."""



def reference(x, scalar):
    scalar = float(scalar[0])
    s = scalar
    return [t * s for t in x]

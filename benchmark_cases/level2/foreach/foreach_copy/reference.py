"""Semantics of ForeachCopy: y_i = x_i (a copy; x * 1 is exact for every value, -0 and NaN included)."""



def reference(x):
    return [t.clone() for t in x]

"""Semantics of ForeachSubList: y_i = x1_i - alpha * x2_i."""



def reference(x1, x2, alpha):
    alpha = float(alpha[0])
    return [a - alpha * b for a, b in zip(x1, x2, strict=True)]

def reference(x, alpha):
    return x * alpha

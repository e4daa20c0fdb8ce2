def reference(x, y):
    return x + y

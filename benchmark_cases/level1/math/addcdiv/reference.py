"""Semantics of Addcdiv: y = input + value * tensor1 / tensor2"""


def reference(input, tensor1, tensor2, value):
    return input + value * tensor1 / tensor2

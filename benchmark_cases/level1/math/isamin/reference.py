"""Semantics of Isamin: 1-based index of min |x| (global argmin)"""
import torch


def reference(x):
    a = x.abs()
    return (torch.nonzero(a == a.min())[0] + 1).to(torch.int32).reshape(1)

"""Semantics of Snrm2: y = ||x||_2 (global reduction)"""
import torch


def reference(x):
    return x.double().square().sum().sqrt().to(torch.float32).reshape(1)

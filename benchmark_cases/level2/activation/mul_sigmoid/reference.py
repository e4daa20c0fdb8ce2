"""Semantics of MulSigmoid: where(s < t2, 2 s, s) * x2 * t3 with s = sigmoid(x1 * t1).

The threshold test uses the float32 sigmoid (as the kernel does); the rest is float64."""
import torch


def reference(x1, x2, t1=1.0, t2=0.5, t3=1.0):
    s = torch.sigmoid(x1.float() * t1)
    s = torch.where(s < t2, s * 2.0, s).double()
    return (s * x2.double() * t3).to(x1.dtype)

"""Semantics of Spence: Spence's function (dilogarithm) for x >= 0, as in scipy.special.spence:

    spence(x) = integral from 1 to x of log(t) / (1 - t) dt   (= Li2(1 - x))

Evaluated in float64 with the classic Cephes rational approximation on [0.5, 1.5] and the
reflection/inversion identities outside it."""
import math

import torch

_A = (4.65128586073990045278e-5, 7.31589045238094711071e-3, 1.33847639578309018650e-1,
      8.79691311754530315341e-1, 2.71149851196553469920e0, 4.25697156008121755724e0,
      3.29771340985225106936e0, 1.00000000000000000126e0)
_B = (6.90990488912553276999e-4, 2.54043763932544379113e-2, 2.82974860602568089943e-1,
      1.41172597751831069617e0, 3.63800533345137075418e0, 5.03278880143316990390e0,
      3.54771340985225096217e0, 9.99999999999999998740e-1)
PI2_6 = math.pi ** 2 / 6


def _polevl(w, coefs):
    acc = torch.full_like(w, coefs[0])
    for c in coefs[1:]:
        acc = acc * w + c
    return acc


def reference(x):
    dtype = x.dtype
    x = x.double()
    inverted = x > 2.0
    x1 = torch.where(inverted, 1.0 / x, x)
    high = x1 > 1.5
    low = x1 < 0.5
    w = torch.where(high, 1.0 / x1 - 1.0, torch.where(low, -x1, x1 - 1.0))
    y = -w * _polevl(w, _A) / _polevl(w, _B)
    y = torch.where(low, PI2_6 - torch.log(x1) * torch.log1p(-x1) - y, y)
    z = torch.log(x1)
    y = torch.where(inverted | high, -0.5 * z * z - y, y)
    y = torch.where(x == 0, torch.full_like(y, PI2_6), y)
    y = torch.where(x < 0, torch.full_like(y, float("nan")), y)
    return y.to(dtype if dtype.is_floating_point else torch.float64)

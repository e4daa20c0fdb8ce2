"""Our own task format: ``case.toml`` (read by :mod:`npukernelbench.spec`), ``reference.py``, templates
and an expert solution; the kernel is launched directly on tensors the harness makes."""

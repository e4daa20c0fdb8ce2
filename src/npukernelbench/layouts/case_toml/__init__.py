"""Our own task format: ``case.toml`` (read by :mod:`npukernelbench.spec`), ``reference.py`` and an
expert solution; the templates are generated from ``case.toml`` (:mod:`.templates`); the kernel is
launched directly on tensors the harness makes."""

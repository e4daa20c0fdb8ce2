"""The ``upstream`` layout: the public NPUKernelBench task format, read unchanged.

A task folder holds ``api_desc.md``, ``question/`` (the templates), ``answer/0/`` (the expert answer,
where the task ships one) and ``validation/``: ``module.py`` (the torch ``Model`` and the ``ModelNew``
that calls the operator), ``prepare_inputs.py`` (``get_inputs``/``get_init_inputs`` per CSV row,
optional ``custom_check_precision``), ``test_cases.csv`` and ``pybind.cpp`` (compiled for real into
``kernel_gen_ops``). Modules: ``layout`` (detection, loading), ``checker``, ``row_variants`` (drawn
variations of CSV rows), ``rows``, ``task``, ``binding``, ``op_call``, ``precision``, ``large_case_lock``.
"""

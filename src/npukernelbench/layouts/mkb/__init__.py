"""The ``mkb`` layout: MultiKernelBench's tasks with its AscendC backend, read unchanged.

A task is one reference module ``reference/<category>/<name>.py`` (``Model``, ``get_inputs``,
``get_init_inputs``); its operator is ``<name>_custom`` (PascalCase ``<Name>Custom``). An answer is a
Python file of six source strings (:mod:`.answer`). Modules: ``layout`` (detection, loading, the
prompt and parse hooks), ``prompt`` (MultiKernelBench's AscendC prompt), ``answer``, ``checker``,
``driver`` (the confined child that runs the reference and the candidate's Python), ``scaling``
(huge inputs scaled down), ``metrics`` (Comp@k, Pass@k, SpeedUp_alpha@k).
"""

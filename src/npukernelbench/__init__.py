"""NPUKernelBench: LLM-written AscendC kernels as parametrized pytest cases.

Nothing heavy is imported here: the pytest plugin loads this package at start-up.
"""

__version__ = "0.1.0"

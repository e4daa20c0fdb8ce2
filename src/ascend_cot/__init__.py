"""Ascend-CoT: builds the chain-of-thought training corpus (documentation, kernel-level, project-level,
general and error-derived debug CoT), verified through ``npukernelbench.evaluate``.

Not implemented yet: the corpus builders arrive with their own issue. Importing this package has no
side effects.
"""

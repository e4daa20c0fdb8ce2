"""Ascend-CoT: builds the chain-of-thought training corpus (documentation, kernel-level, project-level,
general and error-derived debug CoT), every code-bearing answer verified through ``npukernelbench``'s
own pipeline.

Entry points: ``ascend-cot build CONFIG.yaml --out DIR`` / :func:`ascend_cot.build.build`;
``ascend-cot stats DIR``; :func:`ascend_cot.stages.errors.error_cot` (error-derived samples from a run
directory or a list of failing samples). Importing this package has no side effects.
"""

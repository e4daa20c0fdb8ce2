"""KernelGen-LM: SFT (full or LoRA) and DPO on transformers + trl, with rewards and preference pairs
from the benchmark's own pipeline (``npukernelbench.evaluate``).

Available now: :mod:`kernelgen_lm.tiny_model` (a tiny Qwen3 model and a locally trained tokenizer, built
offline, for tests). The training entry points arrive with their own issue.
"""

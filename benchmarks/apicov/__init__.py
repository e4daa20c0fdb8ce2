"""API coverage of the ``ascendc-sim`` simulator against the AscendC API reference.

``benchmarks/api_coverage.py`` is the command line; the modules here are its parts: ``doc_tree`` (which
pages document which APIs for 910B/A3, grouped into families), ``prototypes`` (the documented
overloads of a page), ``probes`` (whether the simulator's headers declare them, checked by g++),
``markers`` (which tests check an API's documented semantics) and ``report`` (tables, JSON, Markdown).
``benchmarks/doc_examples.py`` compiles the reference's own call examples on the same parts: ``examples``
(which blocks, which side, how classified), ``example_shape`` (how a block is wrapped) and
``known_names`` (the names the reference documents and the headers define).
"""

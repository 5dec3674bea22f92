"""A second, independent dataset generator for ``robo-companion vision eval``.

Written only from the contracts (DESIGN.md, the rule sheets, docs/ and the printed marker sheet),
without reading the project's own renderer or readers, so that its figures cannot flatter them.
See docs/vision-otherart.md.
"""

from .generate import generate_dataset, main

__all__ = ["generate_dataset", "main"]

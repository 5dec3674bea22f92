"""A third, independent vision dataset generator (see docs/vision-thirdart.md).

Written only from the contracts (DESIGN.md's markers and dataset layout, the rule sheets, the
marker sheet), not from the readers or the other generators.
"""

"""Reading the Robot Master play area: the card value (0..5) or nothing in each of 25 cells.

The play-area markers 42..45 (clockwise from top-left) give a homography, which the cards' own
outlines then correct (:func:`register`: markers are stuck down by hand, cards laid on a lattice
of their own); the 5x5 area is warped to canonical cells. Where the area lies inside the
markers, and what each value's card looks like, is learnt from the user's own labelled grids
during calibration: each cell is compared with the calibration's cells (shifted and turned
copies included) and takes the nearest example's value, but only when that example is clearly
nearer than any example of another value and near enough to be like anything seen at all (a hand
over the cell is not).

The package, one module a stage (a module imports only the ones above it):

- ``look``: what calibration learnt (GridLook) and the class indices all stages share
- ``geometry``: canonical sizes: a cell, the margin, each cell's template search window
- ``features``: per-cell gradient-histogram and colour features, and distances between them
- ``area``: the play-area markers, their homography, the area warped and white-balanced
- ``outlines``: the cards' own outlines in the area (what registration votes with)
- ``registration``: the markers' homography corrected onto the cards' lattice
- ``table``: the bare table around the area, and a cell middle's colour and texture
- ``colours``: card colours learnt per value, confirming a print's reading
- ``empty``: which cells surely show the bare surface (colour, texture and their guards)
- ``correlation``: FFT correlation of a bank of templates at every placement
- ``templates``: value templates: learnt, matched per window, close-value tie-break
- ``pairs``: the pairwise score of two values' prints on one card, and its calibration
- ``marks``: each value's whole card compared where the values differ (corner numerals,
  seven-segment digits), box by box: reads cards the templates cannot tell apart
- ``judge``: each cell's value and confidence or decline, and the close-call rules
- ``groups``: whole-grid rules: empty readings beside unread cells or cut off
- ``reader``: one picture read: area, registration, empty cells, judging, group rules
- ``learning``: calibration: learning a GridLook from the user's labelled grids

Every public name is importable from ``vision.grid`` itself, as before the package was split.
"""

from __future__ import annotations

from vision.blas import one_blas_thread
from vision.grid.area import balance, find_area, grey_area, rectify
from vision.grid.colours import colour_confirms, colours_confirm, learn_value_colours
from vision.grid.empty import learn_bare, surely_empty
from vision.grid.features import area_features, shifted_features
from vision.grid.geometry import COARSE, MARGIN, SEARCH, scaled_windows
from vision.grid.judge import (
    classify,
    close_pair_score,
    holes_read,
    holes_tell,
    pair_beats,
    pair_decides,
)
from vision.grid.learning import Picture, learn
from vision.grid.look import EMPTY, PRINT_ONLY, Grid, GridLook
from vision.grid.marks import (
    Marks,
    MarksReading,
    learn_mark_floor,
    learn_marks,
    marks_read,
    read_marks,
)
from vision.grid.outlines import OUTLINE_SCALE, card_outlines
from vision.grid.pairs import learn_pair_floor, learn_print_offsets, pair_score
from vision.grid.reader import Region, read_grid, read_grid_region
from vision.grid.registration import register, register_checked
from vision.grid.table import table_features, table_margin, table_patches, table_spread
from vision.grid.templates import (
    coarse_fit,
    learn_templates,
    match_values,
    match_windows,
    print_strengths,
)

# readings must not depend on how many BLAS threads numpy happened to start with
one_blas_thread()

__all__ = [
    "COARSE",
    "EMPTY",
    "MARGIN",
    "OUTLINE_SCALE",
    "PRINT_ONLY",
    "SEARCH",
    "Grid",
    "GridLook",
    "Marks",
    "MarksReading",
    "Picture",
    "Region",
    "area_features",
    "balance",
    "card_outlines",
    "classify",
    "close_pair_score",
    "coarse_fit",
    "colour_confirms",
    "colours_confirm",
    "find_area",
    "grey_area",
    "holes_read",
    "holes_tell",
    "learn",
    "learn_bare",
    "learn_mark_floor",
    "learn_marks",
    "learn_pair_floor",
    "learn_print_offsets",
    "learn_templates",
    "learn_value_colours",
    "marks_read",
    "match_values",
    "match_windows",
    "pair_beats",
    "pair_decides",
    "pair_score",
    "print_strengths",
    "read_grid",
    "read_grid_region",
    "read_marks",
    "rectify",
    "register",
    "register_checked",
    "scaled_windows",
    "shifted_features",
    "surely_empty",
    "table_features",
    "table_margin",
    "table_patches",
    "table_spread",
]

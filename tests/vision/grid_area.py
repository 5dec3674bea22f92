"""A Robot Master play area drawn straight in the canonical frame, for the grid reader's tests:
grey cells (cards laid in them) inside the reader's template margin."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from vision import grid
from vision.grid import geometry

# dice pips of each value, as shares of the card's print area (x, y): the same turned by 180
# degrees about the middle; a 3's pips lie inside a 5's, so their templates correlate alike
DICE_PIPS: dict[int, list[tuple[float, float]]] = {
    0: [], 1: [(0.5, 0.5)], 2: [(0.25, 0.2), (0.75, 0.8)],
    3: [(0.25, 0.2), (0.5, 0.5), (0.75, 0.8)],
    4: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.8), (0.75, 0.8)],
    5: [(0.25, 0.2), (0.75, 0.2), (0.5, 0.5), (0.25, 0.8), (0.75, 0.8)]}


def area(cards: dict[tuple[int, int], np.ndarray]) -> np.ndarray:
    """The grey area (5x5 cells and ``grid.MARGIN`` around, level 90) with each card (a
    cell-sized grey image) laid in its (row, column)."""
    w, h = geometry._cell_size()
    g = np.full((5 * h + 2 * grid.MARGIN, 5 * w + 2 * grid.MARGIN), 90, np.uint8)
    for (r, c), card in cards.items():
        y, x = grid.MARGIN + r * h, grid.MARGIN + c * w
        g[y:y + h, x:x + w] = card
    return g


def dice_pictures(card: Callable[..., np.ndarray], rng: np.random.Generator,
                  first: dict[int, tuple[int, int, bool]] | None = None
                  ) -> tuple[list[np.ndarray], list[grid.Grid]]:
    """Three calibration pictures drawn with ``card(value, rng, dx, dy, turned)``: every value
    twice in each, cards a pixel or two off and every other one turned. ``first``: how the
    first card of some values lies (dx, dy, turned): calibration aligns every card of a value
    on its first."""
    greys: list[np.ndarray] = []
    grids: list[grid.Grid] = []
    for p in range(3):
        cards: dict[tuple[int, int], np.ndarray] = {}
        labels: grid.Grid = [[None] * 5 for _ in range(5)]
        for k, v in enumerate(list(range(6)) * 2):
            r, c = divmod(k, 5)
            dx, dy = (int(x) for x in rng.integers(-2, 3, 2))
            turned = bool((k + p) % 2)
            if first and p == 0 and k < 6 and v in first:
                dx, dy, turned = first[v]
            cards[(r, c)] = card(v, rng, dx, dy, turned)
            labels[r][c] = v
        greys.append(area(cards))
        grids.append(labels)
    return greys, grids


def learnt_templates(card: Callable[[int, np.random.Generator], np.ndarray]
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The value templates (templates, values, masks) :func:`grid.learn_templates` learns from
    one area holding two cards of each value drawn by ``card(value, rng)``: values 0-4 in the
    top two rows' columns, the two 5s down the first column (random stream seeded 5, cards
    drawn in that order)."""
    rng = np.random.default_rng(5)
    cards = {(r, v): card(v, rng) for r in (0, 1) for v in range(5)}
    cards.update({(r + 2, 0): card(5, rng) for r in (0, 1)})
    labels: grid.Grid = [[None] * 5 for _ in range(5)]
    for (r, c) in cards:
        labels[r][c] = 5 if r >= 2 else c
    return grid.learn_templates([area(cards)], [labels])


def scored_alike(scores: list[float], edge: int | None = None) -> Any:
    """A stand-in for :func:`grid.match_windows` that gives every window the same template
    ``scores`` (one per value), no pair gap (the older tie-break says nothing) and no value
    fitting best on a window's edge but ``edge``'s."""
    def match(look: grid.GridLook, windows: list[np.ndarray],
              pair_gaps: np.ndarray | None = None, edges: np.ndarray | None = None
              ) -> np.ndarray:
        if pair_gaps is not None:
            pair_gaps[:] = np.nan
        if edges is not None:
            edges[:] = False
            if edge is not None:
                edges[:, edge] = True
        return np.tile(np.array(scores), (len(windows), 1))
    return match


def board(rows: list[str], read: float) -> tuple[list[int | None], list[float]]:
    """A 5x5 reading drawn as five strings, as the group rules see it: '.' an empty cell and
    a digit a card, each read at confidence ``read``; '?' a declined cell (confidence 0)."""
    values: list[int | None] = []
    confs: list[float] = []
    for row in rows:
        for ch in row:
            values.append(int(ch) if ch.isdigit() else None)
            confs.append(0.0 if ch == "?" else read)
    return values, confs


def print_look(greys: list[np.ndarray], grids: list[grid.Grid], nearest: int) -> grid.GridLook:
    """A look learnt from ``greys`` (areas) and their ``grids`` (labels) whose nearest
    calibration card is always one of value ``nearest``, whatever the print: only the prints
    (templates, pairwise floors, where each print lies on its card) decide."""
    templates, values, masks = grid.learn_templates(greys, grids)
    empty = np.zeros((1, 4), np.float32)
    return grid.GridLook(features=np.concatenate([empty, empty + 10]),
                         classes=np.array([nearest, grid.EMPTY]), max_distance=100.0,
                         templates=templates, template_values=values, template_masks=masks,
                         pair_floor=grid.learn_pair_floor(greys, grids),
                         print_offsets=grid.learn_print_offsets(templates, values, greys,
                                                                grids))


def fixed_match(near: list[float], near_edge: int | None, far: list[float],
                far_edge: int | None, seen: list[tuple[int, int]] | None = None) -> Any:
    """A stand-in for ``templates.match``: fixed scores ``near`` (``near_edge`` the value that
    fits best on its window's edge, or None) for the usual windows, ``far`` (``far_edge``) for
    windows reaching farther; ``seen``, when given, records each call's window shape."""
    h = geometry._cell_size()[1] + 2 * grid.SEARCH

    def match(look: grid.GridLook, windows: list[np.ndarray],
              pair_gaps: np.ndarray | None = None, edges: np.ndarray | None = None
              ) -> np.ndarray:
        farther = windows[0].shape[0] > h
        if seen is not None:
            seen.append(windows[0].shape)
        if pair_gaps is not None:
            pair_gaps[:] = np.nan
        if edges is not None:
            edges[:] = False
            edge = far_edge if farther else near_edge
            if edge is not None:
                edges[:, edge] = True
        return np.tile(np.array(far if farther else near), (len(windows), 1))
    return match


def ten_cards(style: Any) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A rendered grid of ten cards (seed 45) and the cells they lie in."""
    from vision.synth import random_grid
    from vision.synth.scenes import render_grid

    rng = np.random.default_rng(45)
    cells = random_grid(rng, cards=10)
    image = render_grid(style, cells, rng)
    return image, [(r, c) for r in range(5) for c in range(5) if cells[r][c] is not None]



def witnesses_alike(monkeypatch: Any, scores: list[float],
                    look: grid.GridLook) -> grid.GridLook:
    """For a :func:`grid.classify` test: every window's templates score ``scores``, the two
    prints laid on a card say nothing (pair score 0) and no card colour names a value; returns
    ``look`` with one calibration example per value and one empty cell (features: each
    value's unit vector, the empty cell's zeros)."""
    from vision.grid import colours as grid_colours
    from vision.grid import judge, pairs
    from vision.grid import templates as grid_templates

    monkeypatch.setattr(judge, "match_windows", scored_alike(scores))
    monkeypatch.setattr(grid_templates, "match_windows", judge.match_windows)
    monkeypatch.setattr(judge, "pair_score", lambda look, window, a, b, ways=None: 0.0)
    monkeypatch.setattr(pairs, "pair_score", judge.pair_score)
    monkeypatch.setattr(judge, "colours_confirm", lambda look, colours: [None] * len(colours))
    monkeypatch.setattr(grid_colours, "colours_confirm", judge.colours_confirm)
    return dataclasses.replace(
        look, features=np.concatenate([np.eye(6, dtype=np.float32),
                                       np.zeros((1, 6), np.float32)]),
        classes=np.array([0, 1, 2, 3, 4, 5, grid.EMPTY]), max_distance=1.0,
        pair_floor=np.full((6, 6), -0.4, np.float32))

"""What calibration learnt about the user's play area and cards (:class:`GridLook`), and the
class indices every stage shares (``EMPTY``, ``PRINT_ONLY``).

Every stage reads a ``GridLook``; none of them changes it, and only :mod:`.learning` makes one.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

EMPTY = 6  # class index of an empty cell
PRINT_ONLY = -1  # a cell whose value only its print may tell (no nearest calibration card)
Grid = list[list[int | None]]


@dataclass
class GridLook:
    """What calibration learnt about the user's play area and cards."""

    inset: tuple[float, float] = (0.0, 0.0)
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))
    classes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    max_distance: float = 0.0
    #: grey templates of each value's print (half the canonical cell, centre of the card)
    templates: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), np.uint8))
    template_values: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: where the values' prints differ (the card's common paper and border left out)
    template_masks: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), np.uint8))
    #: what an empty cell shows: ``table`` (the table around the area) or a printed ``mat``
    bare_mode: str = "table"
    #: the calibration's empty cells: their colour in each picture (BGR, white-balanced)
    bare: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    bare_texture: float = 0.0
    #: each value's card colour (the middle's median as :func:`_colour_key`; NaN when unseen)
    #: and how far calibration cards of that value strayed from it
    value_colours: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    value_spread: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    #: (6, 6): [a, b] the highest :func:`pair_score` of ``a`` over ``b`` that any calibration
    #: card of value ``b`` reached, its value's templates learnt without its picture (NaN where
    #: too few cards of either value were seen: no pairwise reading)
    pair_floor: np.ndarray = field(default_factory=lambda: np.full((6, 6), np.nan, np.float32))
    #: (6, 2): where each value's mean print (the way up :func:`learn_templates` stores it)
    #: lies on its card: its middle's (dy, dx) from the card's middle, the median over the
    #: calibration cards (NaN when unseen: no pairwise reading)
    print_offsets: np.ndarray = field(
        default_factory=lambda: np.full((6, 2), np.nan, np.float32))
    #: the grey the templates are learnt and matched in (:func:`vision.grid.area.print_grey`):
    #: ``"grey"``, or ``"min"`` where some value's white print on its pale card barely shows in
    #: grey (chosen in :func:`vision.grid.learning.learn`)
    print_grey: str = "grey"
    #: value marks (:mod:`vision.grid.marks`): each value's whole card (n, h, w), its value,
    #: the boxes where the values differ (k, 4: y0, y1, x0, x1) and the marks themselves
    #: (255 where they differ); none learnt: no marks reading
    mark_means: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), np.uint8))
    mark_values: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    mark_boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.int32))
    mark_mask: np.ndarray = field(default_factory=lambda: np.zeros((1, 1), np.uint8))
    #: the most a wrong value's marks led on calibration's own cards, each picture left out
    #: (NaN: not measured, no marks reading)
    mark_floor: float = float("nan")
    #: how far behind the best value's templates a calibration card's own value's fitted, the
    #: most, when it was not even among the best two (each picture's cards read with templates
    #: learnt without it; 0 where fewer than ``template_miss_cards`` cards were): on such a
    #: look a close call between the best two may be neither (see ``judge._missed_third``)
    template_miss: float = 0.0
    #: whether calibration's labelled cells refuted a registration correction moving a cell
    #: farther than ``calibration_labels_judge_move`` and bore out none
    #: (``learning._placements``): on such a look the cards' outlines mislead far corrections,
    #: and a reading's correction moving that far is not taken (see ``reader``)
    far_moves_refuted: bool = False
    #: every calibration card the marks' means were made of, lined up on its value's mean
    #: (m, h, w), and the value of each (none: the marks' reading is not checked against them,
    #: see :func:`vision.grid.marks._singles_doubt`)
    mark_singles: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), np.uint8))
    mark_single_values: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: whether calibration's labelled cards' boxes split a registration correction and bore out
    #: none moving a cell farther than ``split_judge_move`` (``learning._cards_split``): on such
    #: a look the cards' outlines lie on lattices about the cards rather than on them, and a
    #: reading's correction moving that far is not taken (see ``reader``)
    far_moves_split: bool = False

    @property
    def learnt(self) -> bool:
        return len(self.classes) > 0 and len(self.template_values) > 0

    def to_json(self) -> dict[str, Any]:
        f16 = self.features.astype(np.float16)
        return {"inset": list(self.inset), "max_distance": self.max_distance,
                "shape": list(f16.shape), "classes": self.classes.tolist(),
                "features": base64.b64encode(f16.tobytes()).decode("ascii"),
                "template_shape": list(self.templates.shape),
                "template_values": self.template_values.tolist(),
                "templates": base64.b64encode(self.templates.tobytes()).decode("ascii"),
                "template_masks": base64.b64encode(self.template_masks.tobytes()).decode("ascii"),
                "template_scale": 1, "bare_mode": self.bare_mode, "bare": self.bare.tolist(),
                "bare_texture": self.bare_texture,
                "value_colours": self.value_colours.tolist(),
                "value_spread": self.value_spread.tolist(),
                # JSON has no NaN: an unlearnt pair is null
                "pair_floor": [[None if np.isnan(x) else float(x) for x in row]
                               for row in self.pair_floor.tolist()],
                "print_offsets": [[None if np.isnan(x) else float(x) for x in row]
                                  for row in self.print_offsets.tolist()],
                "print_grey": self.print_grey,
                "mark_shape": list(self.mark_means.shape),
                "mark_means": base64.b64encode(self.mark_means.tobytes()).decode("ascii"),
                "mark_values": self.mark_values.tolist(),
                "mark_boxes": self.mark_boxes.tolist(),
                "mark_mask": base64.b64encode(self.mark_mask.tobytes()).decode("ascii"),
                "mark_floor": None if np.isnan(self.mark_floor) else float(self.mark_floor),
                "mark_singles_shape": list(self.mark_singles.shape),
                "mark_singles": base64.b64encode(self.mark_singles.tobytes()).decode("ascii"),
                "mark_single_values": self.mark_single_values.tolist(),
                "template_miss": self.template_miss,
                "far_moves_refuted": self.far_moves_refuted,
                "far_moves_split": self.far_moves_split}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GridLook:
        raw = base64.b64decode(data["features"])
        features = np.frombuffer(raw, np.float16).reshape(data["shape"]).astype(np.float32)
        templates = np.frombuffer(base64.b64decode(data["templates"]), np.uint8).reshape(
            data["template_shape"])
        masks = np.frombuffer(base64.b64decode(data["template_masks"]), np.uint8).reshape(
            data["template_shape"])
        if data.get("template_scale", 2) != 1 and len(templates):
            # stored by an older version at half the canonical size: brought to full size
            size = (templates.shape[2] * 2, templates.shape[1] * 2)
            templates = np.stack([cv2.resize(t, size) for t in templates])
            masks = np.stack([cv2.resize(m, size, interpolation=cv2.INTER_NEAREST)
                              for m in masks])
        return cls((float(data["inset"][0]), float(data["inset"][1])), features,
                   np.array(data["classes"], np.int64), float(data["max_distance"]),
                   templates.copy(), np.array(data["template_values"], np.int64), masks.copy(),
                   str(data.get("bare_mode", "table")),
                   np.array(data.get("bare", []), np.float32).reshape(-1, 3),
                   float(data.get("bare_texture", 0.0)),
                   np.array(data.get("value_colours", []), np.float32).reshape(-1, 4),
                   np.array(data.get("value_spread", []), np.float32),
                   # stored before the pairwise reading: none (as for an unseen pair)
                   np.array(data.get("pair_floor", [[None] * 6] * 6), np.float64)
                   .astype(np.float32),
                   # stored before the prints' offsets were learnt: no pairwise reading
                   np.array(data.get("print_offsets", [[None] * 2] * 6), np.float64)
                   .astype(np.float32),
                   # stored before the grey was chosen: the usual grey
                   str(data.get("print_grey", "grey")),
                   # stored before value marks were learnt: no marks reading
                   *_marks_from_json(data),
                   # stored before the templates' misses were learnt: none
                   float(data.get("template_miss", 0.0)),
                   # stored before calibration judged far corrections: none refuted
                   bool(data.get("far_moves_refuted", False)),
                   # stored before the single cards were kept: none
                   *_singles_from_json(data),
                   # stored before calibration judged corrections by its cards' boxes: none split
                   bool(data.get("far_moves_split", False)))


def _singles_from_json(data: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The marks' single calibration cards as :meth:`GridLook.to_json` stores them (none when it
    did not)."""
    if "mark_singles_shape" not in data:
        return np.zeros((0, 1, 1), np.uint8), np.zeros(0, np.int64)
    shape = [int(x) for x in data["mark_singles_shape"]]
    singles = np.frombuffer(base64.b64decode(data["mark_singles"]), np.uint8).reshape(shape)
    return singles.copy(), np.array(data["mark_single_values"], np.int64)


def _marks_from_json(data: dict[str, Any]
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """The value marks as :meth:`GridLook.to_json` stores them (none when it did not)."""
    if "mark_shape" not in data:
        return (np.zeros((0, 1, 1), np.uint8), np.zeros(0, np.int64),
                np.zeros((0, 4), np.int32), np.zeros((1, 1), np.uint8), float("nan"))
    shape = [int(x) for x in data["mark_shape"]]
    means = np.frombuffer(base64.b64decode(data["mark_means"]), np.uint8).reshape(shape)
    mask = np.frombuffer(base64.b64decode(data["mark_mask"]), np.uint8).reshape(shape[1:])
    floor = data.get("mark_floor")
    return (means.copy(), np.array(data["mark_values"], np.int64),
            np.array(data["mark_boxes"], np.int32).reshape(-1, 4), mask.copy(),
            float("nan") if floor is None else float(floor))

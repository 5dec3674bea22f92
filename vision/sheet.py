"""Printable marker sheets at true size.

Marker size: a marker must span at least ``MIN_PX`` = 24 camera pixels (6 modules of 4 px) even at
the edge of the view, where the table is farthest from the lens. With the lens ``h`` mm above the
table, a horizontal field of view ``fov`` and a picture ``w`` pixels wide::

    table width seen   W = 2 * h * tan(fov / 2)                     (mm)
    pixels per mm      p = w / W                                    (at the centre)
    marker side        s = MIN_PX / p / cos(fov / 2)                (mm, rounded up)

For the defaults (h = 700 mm, w = 1280 px, fov = 66 degrees, the Pi Camera Module 3) that is
21 mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MIN_PX = 24
DPI = 300
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PARTS = ("head", "torso", "legs")
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


def marker_side_mm(height_mm: float, width_px: int, fov_deg: float) -> int:
    half = math.radians(fov_deg) / 2
    seen_mm = 2 * height_mm * math.tan(half)
    px_per_mm = width_px / seen_mm
    return math.ceil(MIN_PX / px_per_mm / math.cos(half))


@dataclass(frozen=True)
class Sticker:
    marker_id: int
    label: str


def stickers() -> list[tuple[str, list[Sticker]]]:
    tiles = [Sticker(3 * s + p, f"id {3 * s + p}: seat {s} {PARTS[p]}")
             for s in range(6) for p in range(3)]
    boards = [Sticker(18 + 4 * s + c, f"id {18 + 4 * s + c}: seat {s} board {CORNERS[c]}")
              for s in range(6) for c in range(4)]
    area = [Sticker(42 + c, f"id {42 + c}: play area {CORNERS[c]}") for c in range(4)]
    return [("Part tiles: one sticker per tile, seat 0..5 clockwise", tiles),
            ("Personal board corners (optional)", boards),
            ("Robot Master play area: one sticker at each corner of the 5x5 area", area)]


def _mm(v: float) -> int:
    return round(v / 25.4 * DPI)


def render_pages(side_mm: int, paper: str = "a4") -> list[np.ndarray]:
    """One grey page (uint8, 300 dpi) per group of stickers."""
    from PIL import Image, ImageDraw, ImageFont

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    pw, ph = PAPER_MM[paper]
    margin = 12.0
    quiet = side_mm / 6.0  # one module of white around the marker, inside the cut line
    label_h = 6.0
    cell_w = side_mm + 2 * quiet + 4.0
    cell_h = side_mm + 2 * quiet + label_h + 4.0
    cols = max(1, int((pw - 2 * margin) // cell_w))
    font = ImageFont.load_default(size=_mm(2.6))
    title_font = ImageFont.load_default(size=_mm(4.0))
    pages = []
    for title, group in stickers():
        rows_per_page = max(1, int((ph - 2 * margin - 30) // cell_h))
        per_page = cols * rows_per_page
        for start in range(0, len(group), per_page):
            page = Image.new("L", (_mm(pw), _mm(ph)), 255)
            draw = ImageDraw.Draw(page)
            draw.text((_mm(margin), _mm(margin)), title, font=title_font, fill=0)
            draw.text((_mm(margin), _mm(margin + 6)),
                      f"Markers {side_mm} mm (DICT_4X4_50). Cut along the grey lines; "
                      "keep the white border.", font=font, fill=0)
            # a scale bar to check the print is true to size
            y_bar = _mm(margin + 12)
            draw.rectangle((_mm(margin), y_bar, _mm(margin + 100), y_bar + _mm(1.5)), fill=0)
            draw.text((_mm(margin + 102), y_bar - _mm(0.8)),
                      "this bar must measure 100 mm", font=font, fill=0)
            top = margin + 20
            for i, sticker in enumerate(group[start:start + per_page]):
                r, c = divmod(i, cols)
                x0, y0 = margin + c * cell_w, top + r * cell_h
                # cut line: light grey dashes around the sticker
                box = (_mm(x0), _mm(y0), _mm(x0 + side_mm + 2 * quiet),
                       _mm(y0 + side_mm + 2 * quiet + label_h))
                for x in range(box[0], box[2], 24):
                    draw.line((x, box[1], min(x + 12, box[2]), box[1]), fill=150, width=3)
                    draw.line((x, box[3], min(x + 12, box[2]), box[3]), fill=150, width=3)
                for y in range(box[1], box[3], 24):
                    draw.line((box[0], y, box[0], min(y + 12, box[3])), fill=150, width=3)
                    draw.line((box[2], y, box[2], min(y + 12, box[3])), fill=150, width=3)
                px = _mm(side_mm)
                marker = cv2.aruco.generateImageMarker(dictionary, sticker.marker_id, px)
                page.paste(Image.fromarray(marker), (_mm(x0 + quiet), _mm(y0 + quiet)))
                draw.text((_mm(x0 + 1.0), _mm(y0 + side_mm + 2 * quiet + 0.3)), sticker.label,
                          font=font, fill=0)
            pages.append(np.array(page))
    return pages


def write(out: Path, side_mm: int, paper: str = "a4") -> list[Path]:
    """Write the sheets: one multi-page PDF, or PNGs (``out``, ``out-2.png``, ...) at 300 dpi."""
    from PIL import Image

    pages = [Image.fromarray(p) for p in render_pages(side_mm, paper)]
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix.lower() == ".pdf":
        pages[0].save(out, save_all=True, append_images=pages[1:], resolution=float(DPI))
        return [out]
    written = []
    for i, page in enumerate(pages):
        path = out if i == 0 else out.with_name(f"{out.stem}-{i + 1}{out.suffix}")
        page.save(path, dpi=(DPI, DPI))
        written.append(path)
    return written

"""Empty cells: which cells surely show the bare surface (the table around the area, or a
printed mat calibration saw), by colour and texture, with the guards that keep a card, a hand or
a card-coloured thing from passing as bare (grain, noise, strays, card colours).

Declining is always allowed; a card read as empty moves cubes, so every test here can only take
a cell away from "surely empty".
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid.checks import checked_table, patterned_bare
from vision.grid.colours import _colour_key
from vision.grid.look import GridLook
from vision.grid.table import _stats
from vision.thresholds import section


def _like(px: np.ndarray, ref: np.ndarray, tolerance: float | None = None) -> np.ndarray:
    """Per cell (``px``: (n, k, 3)), the share of pixels showing the colour ``ref`` (BGR, one
    or one per cell): the same shares of B, G and R (a hand in shade is as dark as a green
    mat, not as green; within ``tolerance``, by default ``empty_hue_tolerance``) and a
    brightness within a ratio (the light falls off across the table)."""
    cfg = section("grid")
    if tolerance is None:
        tolerance = float(cfg["empty_hue_tolerance"])
    ref = np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3), (len(px), 3))
    total = px.sum(axis=2) + 1.0
    ref_total = ref.sum(axis=1, keepdims=True) + 1.0
    # (the largest of the three shares' differences taken pairwise, in place: the same
    # maximum as a reduction over an axis of three, which costs more per pixel than its work)
    hue = np.divide(px, total[..., None])
    np.subtract(hue, (ref / ref_total)[:, None, :], out=hue)
    np.abs(hue, out=hue)
    hue_ok = np.maximum(np.maximum(hue[..., 0], hue[..., 1]), hue[..., 2]) <= tolerance
    ratio = float(cfg["empty_brightness_ratio"])
    bright_ok = (total >= ref_total / ratio) & (total <= ref_total * ratio)
    return np.asarray((hue_ok & bright_ok).mean(axis=1))


def surely_empty(cells: list[np.ndarray], candidates: list[int], table: list[np.ndarray],
                 look: GridLook | None = None, table_at: np.ndarray | None = None,
                 stats: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                 shaded: dict[int, float] | None = None,
                 lit: np.ndarray | None = None,
                 hot: dict[int, float] | None = None) -> dict[int, float]:
    """Of ``candidates``, the cells that surely show the bare surface, with a confidence.

    The bare surface is this picture's table just outside the area (``table``: its usual
    patches, or those showing the calibration's surface when only some do: :func:`_bare_patches`)
    when the calibration's empty cells showed their picture's table, or else a mat
    printed under the area: its colour in this picture is what the cells that look like the
    calibration's mat (loosely: light and print runs shift it, as far again as it varied between
    the calibration pictures) have in common. A cell is surely
    empty only when nearly all its middle shows that colour and it has no more texture than
    the surface has; anything else (a hand, a sleeve, a card) makes it decline. With
    ``table_at`` (the patches' centres, in cells; the cells are the 25 of the area), each cell
    is compared with the table patches nearest to it: the light falls off across the table.
    ``stats``: :func:`_stats` of all ``cells`` when already known.

    ``shaded``: when given (on a table), the cells refused only because their colour is not
    the table's near them, while one patch of the table around shows it (:func:`_table_shades`),
    are put there with a confidence. They are not surely empty by themselves: the caller keeps
    them only where a second witness (the nearest calibration example) says empty too.
    ``lit``: the median colours of table patches left out as foreign that show the table's
    colour under other light (:func:`lit_otherwise`): shades of the table too.
    ``hot``: when given, the shaded cells of a lamp's hot spot (:func:`_hot_shades`) are put
    there too: the caller may take another second witness for them (``reader._hot_bare``).
    """
    cfg = section("grid")
    share = float(cfg["empty_colour_share"])
    if not candidates:
        return {}
    if stats is None:
        px, medians, texture = _stats([cells[i] for i in candidates])
    else:  # :func:`_stats` of all the cells, computed already
        px, medians, texture = (a[candidates] for a in stats)
    mat = look is not None and look.bare_mode == "mat" and len(look.bare) > 0
    tolerance = None
    if not mat:
        if not table:
            return {}
        table_px, table_medians, table_texture = _stats(table)
        # a mat larger than the area: the patches around it show the mat in some places and
        # the table past its edge in others; the cells are held to the mat calibration saw
        keep = _bare_patches(table_medians, look)
        if keep is not None:
            table_px, table_medians, table_texture = (table_px[keep], table_medians[keep],
                                                      table_texture[keep])
            table = [table[k] for k in np.flatnonzero(keep)]
            if table_at is not None:
                table_at = table_at[keep]
        ref = np.median(table_medians, axis=0)
        # a striped or grained table shows more than one shade, and its lighter shades are
        # paler: the colour a cell must show is allowed the spread the table shows itself
        # (most pixels of a patch from the table's overall colour, in three patches of four:
        # stripes run everywhere, while an arm or a hand over the table's edge, pale skin on a
        # pale table, widens only the patches it reaches), within limits
        table_hue = table_px / (table_px.sum(axis=2, keepdims=True) + 1.0)
        # (the largest of the three shares' differences pairwise, as in :func:`_like`)
        gone = np.abs(table_hue - (ref / (ref.sum() + 1.0)))
        spread = np.maximum(np.maximum(gone[..., 0], gone[..., 1]), gone[..., 2])
        tolerance = float(np.clip(
            np.percentile(np.percentile(spread, 90, axis=1), 25)
            * float(cfg["empty_hue_spread_factor"]),
            float(cfg["empty_hue_tolerance"]), float(cfg["empty_hue_tolerance_max"])))
        texture_ref = float(np.median(table_texture))
        near = int(cfg["table_neighbours"])
        # the patches a cell is compared with must show the table's colour themselves: an arm
        # reaching over the area's edge fills the patches there, and a hand over the cells
        # next to them would look like its own "table". A patch's median is held to the plain
        # tolerance (``table_patches_plain_tolerance``), not the one the table's own spread
        # widened: the median averages away the noise that widened it, and at the wide
        # tolerance the table past a mat's edge passed for the mat (other art 12011: a dark
        # felt mat whose noise widened the tolerance to 0.07, a blue cloth beyond its edge at
        # 0.043-0.068 from its colour; the bare cells near that edge, held to the cloth, were
        # nearer a card's colour than to it and were declined, and their neighbours with them).
        # When too few patches pass that, the patches' median lies between two surfaces (a
        # mat's sides and the cloth past its ends, half and half): the wide tolerance lets each
        # cell take the patches nearest to it, as before (other art 12154 g001)
        plain = _like(table_medians[:, None, :], ref, tolerance) >= 1.0
        if bool(cfg["table_patches_plain_tolerance"]):
            strict = _like(table_medians[:, None, :], ref) >= 1.0
            if strict.sum() > near:
                plain = strict
        if table_at is not None and plain.sum() > near:
            at = np.array([(i % 5 + 0.5, i // 5 + 0.5) for i in candidates], np.float32)
            dist = np.linalg.norm(at[:, None, :] - table_at[None, :, :], axis=2)
            dist[:, ~plain] = np.inf
            nearest = np.argsort(dist, axis=1)[:, :near]
            ref = np.median(table_medians[nearest], axis=1)
    else:
        assert look is not None
        # plain cells (uniform) near one of the calibration mat's colours
        plain = _like(px, medians) >= share
        hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
        bare_hue = look.bare / (look.bare.sum(axis=1, keepdims=True) + 1.0)
        ratio = (medians.sum(axis=1)[:, None] + 1.0) / (look.bare.sum(axis=1)[None, :] + 1.0)
        loose = float(cfg["mat_brightness_ratio"])
        # a mat whose colour varied between the calibration pictures (their lamps, a mat
        # swapped for another print of it) may stray as far again, each share on its own
        hue_tolerance = float(cfg["mat_hue_tolerance"]) + bare_hue.max(axis=0) \
            - bare_hue.min(axis=0)
        close = (np.abs(hue[:, None, :] - bare_hue[None, :, :]) <= hue_tolerance).all(axis=2)
        near = (close & (ratio >= 1 / loose) & (ratio <= loose)).any(axis=1)
        # that loose tolerance (the calibration's mats differed: a green from 0.23 to 0.33
        # red share) let white cards greyed by a shadow pass for the mat, and a 1 (its paper
        # plain, its one pip too little ink) was then read as a cell as bare as they (own art
        # h10801 g056, 0.82): a plain cell nearer a card colour calibration saw than to the
        # calibration's mat nearest it, and rougher than that mat may be (its pip), is a card,
        # not this picture's mat. (A smooth grey surface a mat calibration never saw may still
        # stand in for the mat: it shows no print.)
        nearest_bare = look.bare[np.argmin(np.linalg.norm(
            _colour_key(medians)[:, None, :] - _colour_key(look.bare)[None, :, :], axis=2),
            axis=1)]
        guard = ~(_card_coloured(medians, nearest_bare, look)
                  & (texture > _texture_limit(look.bare_texture)))
        near &= guard
        mats = np.flatnonzero(plain & near)
        if not len(mats):
            return {}
        if len(mats) == 1:
            # one plain cell has nothing in this picture to agree with (every other cell holds
            # a card): it is held against the calibration picture's mat it looks most like,
            # with the tolerances of this picture's own surface, and the calibration's texture
            lone = px[mats[0]][None]
            ref = look.bare[int(np.argmax([_like(lone, b)[0] for b in look.bare]))]
            # ... or against the mat this picture shows between the cards, where it shows
            # there (:func:`_mat_between_cards`): the mat's colour changes from picture to
            # picture (its lamp, its print) by more than the plain tolerance
            between = _mat_between_cards(cells, candidates[int(mats[0])], medians[mats[0]])
            if between is not None and _like(lone, between)[0] > _like(lone, ref)[0]:
                ref = between
            texture_ref = look.bare_texture
            overall = ref
        else:
            # this picture's noise and blur set how smooth the mat looks here: the smoother
            # end of the cells that look like it (``mat_texture_percentile``), as white cards
            # on a mat as pale as their paper look like it too and are rougher; and a few such
            # cells (``mat_texture_few``) far rougher than calibration's mat
            # (``mat_texture_ratio``) are no bare mat but cards alone, and calibration's texture
            # holds, as for a lone cell above
            here = float(np.percentile(texture[mats], float(cfg["mat_texture_percentile"])))
            if look.bare_texture > 0 and len(mats) <= int(cfg["mat_texture_few"]) \
                    and here > float(cfg["mat_texture_ratio"]) * look.bare_texture:
                here = look.bare_texture
            texture_ref = max(look.bare_texture, here)
            overall = np.median(medians[mats], axis=0)
            # each cell against the mat cells nearest to it (never itself): the light falls
            # off across the area more than one colour allows
            at = np.array([(i % 5, i // 5) for i in candidates], np.float32)
            dist = np.linalg.norm(at[:, None, :] - at[None, mats, :], axis=2)
            dist[mats == np.arange(len(candidates))[:, None]] = np.inf
            nearest = np.argsort(dist, axis=1)[:, :min(int(cfg["table_neighbours"]),
                                                        len(mats) - 1)]
            ref = np.median(medians[mats][nearest], axis=1)
    like = _like(px, ref, tolerance)
    if ref.ndim == 2:
        # the surface here or overall: a shadow or a lamp's fall-off may favour either
        like = np.maximum(like, _like(px, overall if mat else np.median(table_medians, axis=0),
                                      tolerance))
    if not mat and look is not None and _too_noisy(texture_ref, look.bare_texture):
        return {}
    if not mat and look is not None:
        texture_ref = _area_texture(texture_ref, texture, like >= share, look)
    smooth = texture <= _texture_limit(texture_ref)
    if not mat and look is not None:
        smooth |= _as_smooth_as_calibration(texture, look)
    if not mat and ((like >= share) & ~smooth).any():
        # wood grain and plank seams are lines of one direction across the whole table: a
        # bare cell over a stronger stretch of grain is rougher than the table's median patch,
        # but only across the grain; a card's print and outline have edges every way
        rough = np.flatnonzero((like >= share) & ~smooth)
        smooth[rough] = _along_the_grain([cells[candidates[k]] for k in rough], table)
    if mat and bool(cfg["empty_middle_own_texture"]) and ((like >= share) & ~smooth).any():
        # a mat's printed line (or the table past the mat's edge) just outside a cell's middle
        # roughens the middle's edge: the smoothing reaches past it. Such a cell is measured
        # again on its middle alone (own art 11503 g014: the area 6 px wider than the mat on
        # its empty side, the mat's edge line 1-3 px outside the middles of column 0, their
        # texture 14.8-17.9 against a limit of 16.3, the bare cells beside them at 4.0-7.0)
        rough = np.flatnonzero((like >= share) & ~smooth)
        smooth[rough] = _middle_texture([cells[candidates[k]] for k in rough]) \
            <= _texture_limit(texture_ref)
    if mat and bool(cfg["mat_grain"]) and ((like >= share) & ~smooth).any():
        # a grained surface taken for a mat in calibration (wood whose bare cells all showed
        # one board): a plank seam or a stretch of stronger grain through a cell's middle
        # roughens it past the limit, as on a table, but only across the grain. The grain is
        # the one this picture's own smooth mat cells show (never the cell itself)
        rough = np.flatnonzero((like >= share) & ~smooth)
        calm = np.flatnonzero((like >= share) & smooth)
        if len(calm) >= int(cfg["mat_grain_cells"]):
            smooth[rough] = _along_the_grain([cells[candidates[k]] for k in rough],
                                             [cells[candidates[k]] for k in calm])
    ok = (like >= share) & smooth
    # where the surface's own spread widened the colour tolerance (a dim, noisy picture; a
    # striped table), a cell whose middle is nearer the colour of a card calibration saw than
    # the surface's is no proof of the bare surface, however its pixels pass: white cards on
    # a noisy lavender mat passed as empty (conf 0.52-0.73), and the cells' median colours,
    # averaged over the noise, still told paper from the mat. At the plain tolerance the
    # pixels themselves speak, and the medians of bare cloth or linen stray towards cream
    # paper now and then (five bare cells refused on held-out other art 9921 and 9993)
    if tolerance is not None and tolerance > float(cfg["empty_hue_tolerance"]) + 1e-6:
        coloured = _card_coloured(medians, ref, look)
        ok &= ~(coloured & ~_plainly_like(px, ref, share, texture, look, ok & coloured))
    # a card of the surface's own colour (cream on a cream table, in a noisy picture; cream
    # paper on a pale mat once white-balanced) passes on colour and texture, but its print is
    # darker than nearly all of the surface: an empty cell shows almost no such ink
    if not mat:
        ink_level = np.percentile(table_px.sum(axis=2), 1) * float(cfg["empty_ink_ratio"])
        inkless = (px.sum(axis=2) < ink_level).mean(axis=1) <= float(cfg["empty_ink_share"])
        if bool(cfg["table_hue_ink"]):
            # ... and a print in colour, as on a mat: a pale card of the table's hue whose
            # middle shows one or two orange pips, no darker than the table's grain, passed
            # every test as the bare table (blind third art g2603h g007, a 1, a 1 and a 2 in
            # dim light, 0.52-0.78: the grid read wrong). On a table the middle is blurred a
            # pixel first: a dim picture's noise strays in hue pixel by pixel (bare cells of
            # the hard sets up to 0.071 unblurred), a pip's colour does not
            inkless &= _hue_ink(_blurred_middles([cells[i] for i in candidates])) \
                <= float(cfg["table_hue_ink_share"])
        ok &= inkless
        stray = _strays(medians, ref, ok)
        if shaded is not None and bool(cfg["empty_table_shades"]):
            refused = smooth & inkless & ~(ok & ~stray)
            shades = table_medians[plain]
            if lit is not None and len(lit):
                shades = np.concatenate([shades, np.asarray(lit, np.float32).reshape(-1, 3)])
            for k, conf in _table_shades(px, medians, shades, tolerance, share,
                                         look, refused).items():
                shaded[candidates[k]] = conf
        if shaded is not None and bool(cfg["table_hot"]):
            # a lamp's hot spot on the table: brighter than the markers' paper, the cells
            # under it are clipped in their brighter channels (:func:`_hot_shades`)
            refs = ref if ref.ndim == 2 else np.broadcast_to(ref, medians.shape)
            for k, conf in _hot_shades(medians, refs, smooth & inkless & ~(ok & ~stray),
                                       look).items():
                shaded.setdefault(candidates[k], conf)
                if hot is not None:
                    hot.setdefault(candidates[k], conf)
            if hot is not None and bool(cfg["table_hot_white_out"]):
                # (to that witness only, never to the nearest calibration example alone)
                for k in _white_outs(medians, smooth & inkless & ~(ok & ~stray)):
                    hot.setdefault(candidates[k], 0.5)
        ok &= ~stray
        if bool(cfg["table_lamp_steps"]):
            # a lamp's bright patch on the table inside the area: its cells lie past the
            # brightness ratio of the table patches around the area (which the lamp does not
            # reach), as a lamp's band does on a mat, and the same steps take them, from a bare
            # cell beside them (:func:`_lamp_steps`: the hue within empty_median_hue of it, and
            # no more than mat_lamp_brighter times as bright). Their median must show the
            # table's hue, and the ink tests above stand. The grain's contrast grows with the
            # light, so a lit cell's texture is judged as if at the table's own light (blind
            # g2609 g014, a warm hot spot up to 1.7 times as bright as the table near it, its
            # wood grain 42-52 against a limit of 34; g2581 g020, 58 against 44)
            refs = ref if ref.ndim == 2 else np.broadcast_to(ref, medians.shape)
            lit = (medians.sum(axis=1) + 1.0) / (refs.sum(axis=1) + 1.0)
            # (brighter only: a shadow's cells beside bare ones stay with the table's shades,
            # which ask the nearest calibration example too; a dark sleeve is as smooth)
            off = lit >= float(cfg["mat_lamp_off"])
            close = _median_hue_off(medians, refs) <= float(cfg["empty_median_hue"])
            plain = _like(px, medians) >= share
            calm = texture / np.maximum(lit, 1.0) <= _texture_limit(texture_ref)
            stepped = _lamp_steps(px, medians, candidates,
                                  plain & close & calm & inkless & off, ok)
            like = np.where(stepped & ~ok, _like(px, medians), like)
            ok |= stepped
    else:
        # on a mat, against the surface the cell is held to (the mat cells near it, or the
        # calibration's mat): a printed mat is plain where a cell's middle lies
        level = (ref.sum(axis=-1) if ref.ndim == 2 else np.full(len(candidates), ref.sum()))
        ink_level = level[:, None] * float(cfg["empty_ink_ratio"])
        inkless = (px.sum(axis=2) < ink_level).mean(axis=1) <= float(cfg["empty_ink_share"])
        if bool(cfg["mat_hue_ink"]):
            # a print in colour is no darker than the mat: a pale card of the mat's colour whose
            # only print in the middle is a light blue pip or two passed every test as the mat
            # (third art g2586: a 1 in a lamp's white-out, a 2 and a 3 in a full grid whose
            # "mat" cells were cards, 0.72-0.90). Its pip shows in the middle's hue
            inkless &= _hue_ink(px) <= float(cfg["mat_hue_ink_share"])
        if bool(cfg["mat_white_out"]):
            # a middle clipped white in every channel tells little, on a mat as on a table
            # (see _hot_shades): a white card clips so too, and a lamp's white-out over a pale
            # mat took a 1, its one light pip all its middle showed, for the mat (third art
            # g2586 g006, g007: 0.84, 0.90). Such a cell is the mat only where the cell, but
            # for its outer tenth, shows no edge a card's numerals and pips bring
            # (``mat_white_out_edges``; cell_edges: white-out bare cells 1.5 at the median,
            # 19 at the 90th percentile, every card 196 or more)
            # (clipped in two channels or more: a warm lamp leaves the red a little under the
            # clip, hard third art g2576h g011, a 1 at 255, 255, 248 read as the mat at 0.85)
            clipped = (medians >= float(cfg["table_hot_clip"])).sum(axis=1) >= \
                int(cfg["mat_white_out_channels"])
            for spot in np.flatnonzero(clipped).tolist():
                white = cells[candidates[spot]]
                ch, cw = white.shape[:2]
                inner = white[int(0.1 * ch):ch - int(0.1 * ch), int(0.1 * cw):cw - int(0.1 * cw)]
                if cell_edges(inner) > float(cfg["mat_white_out_edges"]):
                    inkless[spot] = False
        ok &= inkless
        if shaded is not None and bool(cfg["mat_glare"]):
            # a lamp's or a window's reflection on a glass table taken for a mat: the cells
            # under it show the mat's colour plus white light (:func:`_glare_shades`)
            for k, conf in _glare_shades(medians, overall,
                                         plain & smooth & inkless & ~ok).items():
                shaded.setdefault(candidates[k], conf)
        if shaded is not None and table and bool(cfg["mat_table_shades"]):
            # a window's reflection across a glass table (taken for a mat: its bare cells
            # matched no one colour of the patches around) makes a band of cells brighter or
            # darker than the mat cells nearest them by more than the brightness ratio, hue and
            # texture alike (third art t1, d2301, d2310, g2483: 24 grids declined for such
            # cells). The band crosses the table around the area too: a smooth, inkless cell
            # showing the colour of patches there is bare when the nearest calibration example
            # says empty too, as on a table (:func:`_table_shades`)
            t_px, t_medians, _ = _stats(table)
            t_ink = np.percentile(t_px.sum(axis=2), 1) * float(cfg["empty_ink_ratio"])
            t_inkless = (px.sum(axis=2) < t_ink).mean(axis=1) <= float(cfg["empty_ink_share"])
            for k, conf in _table_shades(px, medians, t_medians, None, share, look,
                                         smooth & t_inkless & ~ok).items():
                shaded[candidates[k]] = conf
        # (only where the light differs from the reference's by mat_lamp_off: a cell in the
        # reference's light was judged in it already, its print by the ink test)
        lit_ratio = medians.sum(axis=1) / np.maximum(level, 1.0)
        off = (lit_ratio >= float(cfg["mat_lamp_off"])) \
            | (lit_ratio <= 1 / float(cfg["mat_lamp_off"]))
        if bool(cfg["mat_lamp_steps"]):
            # a lamp's band across the surface: the cells the nearest mat cells' median refused
            # on brightness alone, each beside a cell that passed (:func:`_lamp_steps`)
            stepped = _lamp_steps(px, medians, candidates,
                                  plain & close.any(axis=1) & guard & smooth & off, ok)
            like = np.where(stepped & ~ok, _like(px, medians), like)
            ok |= stepped
        if shaded is not None and bool(cfg["mat_lit_shades"]):
            # ... and such a cell with no bare cell beside it to step from (the cards all
            # round it, a corner's vignette or a lamp's fall-off): a shade of the mat, bare
            # only where the nearest calibration example says empty too (third art d2305
            # g002: the mat's corner cell 172 grey levels against 289 for the mat cells nearest,
            # calibration having seen this mat at 169; g2545 g002 0.65, e2404 g005 1.57 times
            # its neighbours, cards on every side). Its ink is judged against its own median
            own_ink = (px.sum(axis=2) < (medians.sum(axis=1) * float(cfg["empty_ink_ratio"]))
                       [:, None]).mean(axis=1) <= float(cfg["empty_ink_share"])
            for cell in np.flatnonzero(plain & near & smooth & off & own_ink & ~ok).tolist():
                shaded.setdefault(candidates[cell], 0.5)
    return {i: round(min(1.0, (float(sh) - share) / (1 - share) * 0.5 + 0.5), 3)
            for i, sh, good in zip(candidates, like, ok, strict=True) if good}


def _lamp_steps(px: np.ndarray, medians: np.ndarray, candidates: list[int],
                asked: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """On a mat (or a surface calibration took for one) or a table, per candidate cell (its
    middle's pixels and median colour; ``candidates``: the cells' indices in the area), whether
    it is the bare surface under other light: one of the ``asked`` cells (plain, of the
    surface's hue at any brightness, not card-coloured, as smooth as the surface, and lit
    otherwise than the reference it was held to) that the reference refused, beside (rows,
    columns or diagonals) a cell that passed every test (``sure``) or this one in turn, its median
    within ``empty_median_hue`` of that cell's in shares of B, G and R, its brightness from
    ``mat_lamp_darker`` to ``mat_lamp_brighter`` times that cell's, and no more than
    ``empty_ink_share`` of its middle darker than ``empty_ink_ratio`` of its own median (ink).

    A lamp's bright band across a dark table (third art t1, d2301: the surface from 45 to 180
    in one picture, halving from one row of cells to the next at the band's edge) puts cells
    of one colour at brightnesses past the ratio of the mat cells nearest them, whose median
    lies across the band; their dark mottling then reads as ink against that brighter median.
    The cell beside is the surface under nearly the same light, and a cell that passed so is
    that for the cells beside it in turn (the band's falloff runs over more than one cell).
    A card's paper is brighter than the surface under the same light (``mat_lamp_brighter``
    allows little of that), and the print, hue and texture tests stand.
    """
    cfg = section("grid")
    out = np.zeros(len(px), bool)
    if not sure.any() or not (asked & ~sure).any():
        return out
    hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
    level = medians.sum(axis=1) + 1.0
    darker, brighter = float(cfg["mat_lamp_darker"]), float(cfg["mat_lamp_brighter"])
    limit = float(cfg["empty_median_hue"])
    inkless = (px.sum(axis=2) < (medians.sum(axis=1) * float(cfg["empty_ink_ratio"]))
               [:, None]).mean(axis=1) <= float(cfg["empty_ink_share"])
    at = np.array([divmod(i, 5) for i in candidates])
    beside = np.abs(at[:, None, :] - at[None, :, :]).max(axis=2) == 1
    ratio = level[:, None] / level[None, :]
    steps = beside & (ratio >= darker) & (ratio <= brighter) \
        & (np.abs(hue[:, None, :] - hue[None, :, :]).max(axis=2) <= limit)
    ask = asked & ~sure & inkless
    bare = sure.copy()
    while True:
        new = ask & ~bare & steps[:, bare].any(axis=1)
        if not new.any():
            return out
        out |= new
        bare |= new


def _mat_between_cards(cells: list[np.ndarray], lone: int, colour: np.ndarray
                       ) -> np.ndarray | None:
    """The colour of the mat this picture shows between its cards, when it is the colour of
    the one plain cell ``lone`` (its median ``colour``): in at least ``mat_gutter_cells`` of
    the other cells, at least ``mat_gutter_share`` of the ring ``mat_gutter_ring`` of a cell
    wide along the cell's edges (where a card laid in its cell leaves the mat showing) shows
    that colour (:func:`_like`); then the median of those ring pixels, else None.

    A lone bare cell on a mat (every other cell holds a card) has no other bare cell in the
    picture to agree with and was held to the calibration picture's mat nearest to it, and the
    mat's colour changes from picture to picture by more than the plain tolerance (own art 6
    g059, 14003 g059, 15001 g035: 0.01-0.07 of the cell's pixels on calibration's nearest mat;
    the gutters of every other cell show the lone cell's colour, 15-31% of their rings). The
    cells beside the cards are the same mat under the same light; a hand or a card lying in
    the lone cell shows its own colour, which the mat between the cards does not. The lone
    cell still has to pass every other test (its share of that colour, texture, ink)."""
    cfg = section("grid")
    if not bool(cfg["mat_lone_gutters"]) or len(cells) < 2:
        return None
    h, w = cells[0].shape[:2]
    band = float(cfg["mat_gutter_ring"])
    ry, rx = max(1, int(band * h)), max(1, int(band * w))
    edge = np.ones((h, w), bool)
    edge[ry:h - ry, rx:w - rx] = False
    rings = np.stack([c[edge] for k, c in enumerate(cells) if k != lone]).astype(np.float32)
    shown = _like(rings.reshape(-1, 1, 3), colour).reshape(len(rings), -1) >= 1.0
    if float((shown.mean(axis=1) >= float(cfg["mat_gutter_share"])).mean()) \
            < float(cfg["mat_gutter_cells"]):
        return None
    return np.asarray(np.median(rings[shown], axis=0), np.float32)


def lit_otherwise(unusual: list[np.ndarray], usual: list[np.ndarray]) -> np.ndarray:
    """Of the table patches :func:`table_patches` left out as foreign (``unusual``: their
    pixels), which show the table's own colour under other light (``table_lit_otherwise``): as
    smooth as the patches kept (``usual``; the limit :func:`_texture_limit` sets on their
    median texture) and their median within ``table_lit_hue`` of the kept patches' median
    colour in shares of B, G and R, however much lighter or darker.

    A shadow's edge across the table around the area (a lamp's shade, someone standing by)
    splits the patches into a lit group and a shaded one, and the smaller group is left out as
    foreign: the cells under the same light as it were held to the other group's colour, past
    the brightness ratio (own art 34 g017: the lit bottom row 1.7 times as bright as the shaded
    patches kept, its lit patches 0.001-0.006 from their shares; gate 14 own 19001 g035: the
    shaded bottom rows at 0.57 of the lit patches kept, 0.002 from their shares), and a cell
    like those patches was taken for something foreign. A shadow or a lamp changes the
    brightness, not the shares of the colour; an arm or a sleeve over the table's edge, even
    one nearly the table's colour, moves them more (a hand on pine: 0.028-0.042), and stays
    foreign."""
    out = np.zeros(len(unusual), bool)
    if not unusual or not usual or not bool(section("grid")["table_lit_otherwise"]):
        return out
    _, medians, texture = _stats(unusual)
    _, kept, kept_texture = _stats(usual)
    ref = np.median(kept, axis=0)
    hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
    apart = np.abs(hue - ref / (ref.sum() + 1.0)).max(axis=1)
    return np.asarray((apart <= float(section("grid")["table_lit_hue"]))
                      & (texture <= _texture_limit(float(np.median(kept_texture)))), bool)


def _table_shades(px: np.ndarray, medians: np.ndarray, shades: np.ndarray,
                  tolerance: float | None, share: float, look: GridLook | None,
                  asked: np.ndarray) -> dict[int, float]:
    """Of the ``asked`` cells (their middles' pixels and median colours; each as smooth as the
    table and inkless already), those showing the colours the table around the area shows
    (``shades``: the patches' median colours, of those showing the table's colour), by index,
    with the confidence :func:`surely_empty` gives: the patch whose median is nearest the
    cell's in shares of B, G and R is within ``empty_median_hue`` of it, ``empty_colour_share``
    of the cell's pixels show one patch's colour or another's (:func:`_like`'s test, at
    ``tolerance``), and the cell is no nearer a card's colour calibration saw than to that
    nearest patch's.

    A table is not one colour: wood grain or stripes in bands wider than a patch, a shadow's
    soft edge, the light falling off, make some patches lighter or darker than others, and an
    offset of all three channels alike (grain, glare) moves the shares too, not only the
    brightness. A bare cell on a darker band is held to the median of its nearest patches,
    which lie on other bands, and its middle strays from it as a hand's would (own art 13002
    g026, 36 g005, 18001 g005: bare cells on grained tables 0.027-0.05 off the median of their
    nearest patches, a patch on the same band 0.001-0.008 off), or it lies across two bands
    and a sixth of its pixels are off any one colour (own art 32 g011). The patches say which
    colours the bare table shows in this picture; a hand, a sleeve or a card shows colours
    none of them shows. This alone proves no bare cell: the caller asks the nearest
    calibration example too."""
    out: dict[int, float] = {}
    ask = np.flatnonzero(asked)
    if not len(ask) or not len(shades):
        return out
    cfg = section("grid")
    if tolerance is None:
        tolerance = float(cfg["empty_hue_tolerance"])
    hue = medians[ask] / (medians[ask].sum(axis=1, keepdims=True) + 1.0)
    shade_hue = shades / (shades.sum(axis=1, keepdims=True) + 1.0)
    apart = np.abs(hue[:, None, :] - shade_hue[None, :, :]).max(axis=2)
    nearest = apart.argmin(axis=1)
    near = apart[np.arange(len(ask)), nearest] <= float(cfg["empty_median_hue"])
    # per pixel, whether it shows some patch's colour: within the tolerance of its shares and
    # the brightness ratio of its brightness, as :func:`_like` tests one colour
    cell_px = px[ask]
    total = cell_px.sum(axis=2) + 1.0
    cell_hue = cell_px / total[..., None]
    ratio = float(cfg["empty_brightness_ratio"])
    shown = np.zeros(cell_px.shape[:2], bool)
    for colour, colour_hue in zip(shades, shade_hue, strict=True):
        level = float(colour.sum()) + 1.0
        shown |= ((np.abs(cell_hue - colour_hue).max(axis=2) <= tolerance)
                  & (total >= level / ratio) & (total <= level * ratio))
    like = shown.mean(axis=1)
    good = near & (like >= share) & ~_card_coloured(medians[ask], shades[nearest], look)
    for k, sh in zip(ask[good], like[good], strict=True):
        out[int(k)] = round(min(1.0, (float(sh) - share) / (1 - share) * 0.5 + 0.5), 3)
    return out


def _glare_shades(medians: np.ndarray, mat: np.ndarray, asked: np.ndarray) -> dict[int, float]:
    """Of the ``asked`` cells (their median colours; each plain, as smooth as the mat and
    inkless already), those whose colour is the mat's (``mat``: this picture's) times a factor
    between ``mat_glare_times`` plus at least ``mat_glare_white`` grey levels of white light
    in every channel, within ``mat_glare_residual`` grey levels: by index, with a confidence
    of 0.5. Not bare by this alone: the caller asks the nearest calibration example too.

    A reflection across a dark glass table (third art g2531: a band of light over the area's
    top row) adds white light to the table's own colour: the cells under it were 3-4 times as
    bright as the mat and their shares of B, G and R moved towards grey, past every
    tolerance of a shade or a lamp. Fitted so, its bare cells took the mat 0.9-1.8 times plus
    16-74 grey levels, within 0.1-2.5; its cards were rougher than the mat by far (texture
    107-183 against 10-16), and white paper clipped at 255 is no mat at all (0 times)."""
    out: dict[int, float] = {}
    ask = np.flatnonzero(asked)
    if not len(ask):
        return out
    cfg = section("grid")
    low, high = (float(t) for t in cfg["mat_glare_times"])
    m = np.asarray(mat, np.float64)
    centred = m - m.mean()
    if float(centred @ centred) < 1.0:
        return out  # (a grey mat: white light does not change its colour)
    for k in ask:
        c = np.asarray(medians[k], np.float64)
        times = float((c - c.mean()) @ centred / (centred @ centred))
        white = float(c.mean() - times * m.mean())
        residual = float(np.linalg.norm((c - c.mean()) - times * centred))
        if low <= times <= high and white >= float(cfg["mat_glare_white"]) \
                and residual <= float(cfg["mat_glare_residual"]):
            out[int(k)] = 0.5
    return out


def _hot_shades(medians: np.ndarray, refs: np.ndarray, asked: np.ndarray,
                look: GridLook | None) -> dict[int, float]:
    """Of the ``asked`` cells (their median colours; each as smooth as the table and inkless
    already), those showing the table's colour near them (``refs``, one per cell) under more
    light, clipped: some channels at least ``table_hot_clip``, the others the table's times
    one factor between ``table_hot_times`` (least squares, each within ``table_hot_residual``
    grey levels), and that factor bringing the clipped channels of the table to within
    ``table_hot_slack`` of the clip. By index, with a confidence of 0.5; not bare by this
    alone: the caller asks the nearest calibration example too. A cell nearer a card's colour
    calibration saw than to the table so lit is left out (:func:`_card_coloured`).

    The picture is white-balanced on the markers' paper, and a lamp's hot spot on the table
    is brighter than the paper where the markers lie: the cells under it reach 255 in their
    brighter channels (a warm wood's red and green) while blue still follows the light, and
    their colour then moves towards white, past every tolerance of a shade (third art g2529
    g012: the table 110, 159, 199 and the cells 176-197, 255, 255, 1.6-1.8 times its blue;
    e2408, g2464, g2502, g2511, t3: 15 clean grids declined for such cells). Cells clipped
    in every channel tell nothing (white paper clips so too) and are not taken."""
    out: dict[int, float] = {}
    cfg = section("grid")
    clip = float(cfg["table_hot_clip"])
    low, high = (float(t) for t in cfg["table_hot_times"])
    for k in np.flatnonzero(asked):
        c = np.asarray(medians[k], np.float64)
        t = np.asarray(refs[k], np.float64)
        clipped = c >= clip
        if not clipped.any() or clipped.all() or float(t[~clipped] @ t[~clipped]) < 1.0:
            continue
        times = float(c[~clipped] @ t[~clipped] / (t[~clipped] @ t[~clipped]))
        if not low <= times <= high:
            continue
        if float(np.abs(c[~clipped] - times * t[~clipped]).max()) > float(
                cfg["table_hot_residual"]):
            continue
        if float((times * t[clipped]).min()) < clip - float(cfg["table_hot_slack"]):
            continue
        lit = np.minimum(times * t, 255.0).astype(np.float32)
        if bool(_card_coloured(np.asarray(medians[k:k + 1], np.float32), lit, look)[0]):
            continue
        out[int(k)] = 0.5
    return out


def _white_outs(medians: np.ndarray, asked: np.ndarray) -> list[int]:
    """Of the ``asked`` cells (their median colours; each as smooth as the table and inkless
    already), by index, those clipped white in every channel (``table_hot_clip``): a lamp's
    white-out. Their colour tells nothing (white paper clips so too), so no shade of the table
    takes them (:func:`_hot_shades`); but a card there still shows its print and outline, and
    the caller's witness for a hot spot looks for those over the whole cell
    (``reader._hot_bare``). Third art g2673 g003: three bare cells at 246-255 in every channel,
    edge-free, asked with the bare cells beside them."""
    clip = float(section("grid")["table_hot_clip"])
    return [int(k) for k in np.flatnonzero(asked & (medians >= clip).all(axis=1))]


def _hue_ink(px: np.ndarray) -> np.ndarray:
    """Per cell (``px``: its middle's pixels, (n, k, 3)), the share of pixels whose colour
    (shares of B, G and R) lies more than ``mat_hue_ink_apart`` from the middle's own median
    colour in some share: a print in colour, however light. A bare mat's middle shows its noise only
    (over 5,600 bare mat cells read, at most 0.009 of the middle so far off; two cells whose
    middle's edge held the table past a mat's end 0.03), a card's pip 0.017-0.039."""
    hue = px.astype(np.float32) / (px.sum(axis=2, keepdims=True).astype(np.float32) + 1.0)
    off = np.abs(hue - np.median(hue, axis=1, keepdims=True)).max(axis=2)
    return np.asarray((off > float(section("grid")["mat_hue_ink_apart"])).mean(axis=1))


def _blurred_middles(cells: list[np.ndarray]) -> np.ndarray:
    """The middles' pixels (as :func:`_stats` takes them) of ``cells`` blurred by a pixel
    (``table_hue_ink_blur``): what a print shows of its colour, less the sensor's noise."""
    sigma = float(section("grid")["table_hue_ink_blur"])
    return _stats([cv2.GaussianBlur(np.ascontiguousarray(c), (0, 0), sigma) for c in cells])[0]


def cell_edges(cell: np.ndarray) -> float:
    """The strongest edges anywhere in a whole cell: the 98th percentile of the gradient's
    magnitude, lightly smoothed, in its most contrasted channel. A card's outline and print
    make a few per cent of a cell's pixels steep in some channel, wherever the print lies
    (corner numerals as much as a robot in the middle); the bare table under a lamp shows
    only its grain and the light's slow fall-off."""
    b = cv2.GaussianBlur(np.ascontiguousarray(cell).astype(np.float32), (0, 0), 1.5)
    best = 0.0
    for ch in range(3):
        mag = cv2.magnitude(cv2.Sobel(b[..., ch], cv2.CV_32F, 1, 0, ksize=3),
                            cv2.Sobel(b[..., ch], cv2.CV_32F, 0, 1, ksize=3))
        best = max(best, float(np.percentile(mag, 98)))
    return best


def _middle_texture(cells: list[np.ndarray]) -> np.ndarray:
    """Per cell, the texture of its middle (as :func:`_stats` measures it) with the smooth
    shading taken from the middle's own pixels: an edge outside the middle adds nothing,
    where in :func:`_stats` the smoothing carries a strong one a few pixels in. Anything
    inside the middle (a card's print or outline, a hand's edge) counts as before."""
    out = np.zeros(len(cells))
    for k, cell in enumerate(cells):
        h, w = cell.shape[:2]
        y, x = int(0.18 * h), int(0.18 * w)
        g = cv2.cvtColor(np.ascontiguousarray(cell[y:h - y, x:w - x]),
                         cv2.COLOR_BGR2GRAY).astype(np.float32)
        g -= cv2.GaussianBlur(g, (13, 13), 3.0)
        grad = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3))
        grad += np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
        out[k] = float(grad.mean())
    return out


def _area_texture(texture_ref: float, texture: np.ndarray, shown: np.ndarray,
                  look: GridLook) -> float:
    """The texture a bare cell may show on a table (``texture_ref``: the table's around the
    area), no rougher than the bare surface inside the area shows in this picture
    (``empty_texture_area``): the median texture of the cells showing the surface's colour
    (``shown``, at least ``empty_texture_area_cells`` of them), or calibration's bare cells'
    (``bare_texture``) where that is rougher.

    The limit follows the table around the area because the bare cells show that table. A
    printed mat of the table's colour (cream on pale wood) is taken for the table too, and
    there the grain and plank seams of the wood around set the limit for a smooth mat: third
    art t2 g012 (the table at 41.4, its limit 70.2; calibration's bare cells at 11.0, this
    picture's bare cells 0.2-8.2), where a 2 and a 3 on pale cards washed out by window light,
    the cards' colour the mat's, passed at 29.7 and 50.4 for empty (0.85, 0.72). Where the
    cells show the table itself, they are about as rough as it (grain, noise), and the limit
    stays near the table's; where cards make most of the cells showing the colour, their
    median is a card's, and nothing changes. The grain test (:func:`_along_the_grain`) still
    takes a bare cell over a seam back."""
    cfg = section("grid")
    if not bool(cfg["empty_texture_area"]) \
            or int(shown.sum()) < int(cfg["empty_texture_area_cells"]):
        return texture_ref
    area = max(look.bare_texture, float(np.median(texture[shown])))
    return min(texture_ref, area)


def _as_smooth_as_calibration(texture: np.ndarray, look: GridLook) -> np.ndarray:
    """Per cell (its texture), whether it is no rougher than the texture limit calibration's
    bare cells set (their median texture, ``bare_texture``), on a table
    (``empty_texture_from_calibration``). The limit follows this picture's table around the
    area, and where that is smoother than the cells' own bare surface (a mat's plain margin
    around its printed cells; a stretch of table less grained than calibration's) bare cells
    as smooth as calibration's were refused: other art 10512 g020 (cells 9-11 against a
    margin's 1.8, calibration's bare cells 9.9), 9922 g013, 9995 g002. A card's print is many
    times rougher than a bare cell; the colour, ink and stray tests still apply."""
    if not bool(section("grid")["empty_texture_from_calibration"]) or look.bare_texture <= 0:
        return np.zeros(len(texture), bool)
    return np.asarray(texture <= _texture_limit(look.bare_texture), bool)


def _plainly_like(px: np.ndarray, ref: np.ndarray, share: float, texture: np.ndarray,
                  look: GridLook | None, asked: np.ndarray) -> np.ndarray:
    """Per cell (its middle's pixels and texture), whether its pixels speak for the surface
    on their own (``empty_card_colour_plain``): it shows the surface's colour (``ref``: one, or
    one per cell) at the plain tolerance (``empty_hue_tolerance``) and is no rougher than
    calibration's bare cells (the limit their median texture sets: no noise widened what it
    passes). Only the ``asked`` cells are looked at (the others are False). The card-colour
    rule is for tolerances the surface's own spread widened (a noisy picture: white cards on
    a lavender mat passed, 9931 g020, their noise 131-159 against calibration's 10.8); patches
    lying across a mat's edge onto the table beyond widen it too, and there smooth bare cells
    whose medians a lamp moved nearer the cards' pale grey were refused (other art 10913 g004:
    bare lavender cells at 5.5, calibration's at 9.1). Such cells are not asked it."""
    out = np.zeros(len(px), bool)
    if look is None or look.bare_texture <= 0 \
            or not bool(section("grid")["empty_card_colour_plain"]):
        return out
    ask = np.flatnonzero(asked & (texture <= _texture_limit(look.bare_texture)))
    if len(ask):
        refs = np.asarray(ref, np.float32).reshape(-1, 3)
        out[ask] = _like(px[ask], refs[ask] if len(refs) == len(px) else refs[0]) >= share
    return out


def _too_noisy(texture_ref: float, bare_texture: float) -> bool:
    """Whether the table around the area is too rough in this picture for a bare cell to be
    told from a card: rougher than ``empty_noise_texture`` (no clean picture's table measured
    over 59.4, a grained table) and ``empty_noise_ratio`` times the calibration's bare cells.

    A bare cell is known by being as smooth as the table. In a very dark picture brightened by
    white balance the sensor's noise is as strong as a card's print (other art h10631 g003: the
    table at 112, calibration's bare cells at 11.4; h10816 g006: 75.1 against 7.4), the texture
    limit widens with it, and cards passed for the table (three cards read empty at 0.51-0.70,
    a cream 1 at 0.66). There no cell is called empty: every cell a card does not claim is
    asked."""
    cfg = section("grid")
    return (texture_ref > float(cfg["empty_noise_texture"])
            and texture_ref > float(cfg["empty_noise_ratio"]) * bare_texture)


def _gradient_moments(cells: list[np.ndarray]) -> np.ndarray:
    """Of each cell's middle (all cells of one size), the mean of gx², gx·gy and gy² (n, 3) of
    the gradient :func:`_stats` measures its texture on (smooth shading taken away first)."""
    stack = np.stack(cells)
    n, h, w = stack.shape[:3]
    g = cv2.cvtColor(stack.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).astype(np.float32)
    g -= cv2.GaussianBlur(g, (13, 13), 3.0)
    y, x = int(0.18 * h), int(0.18 * w)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3).reshape(n, h, w)[:, y:h - y, x:w - x]
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3).reshape(n, h, w)[:, y:h - y, x:w - x]
    gx, gy = gx.reshape(n, -1), gy.reshape(n, -1)
    return np.stack([(gx * gx).mean(axis=1), (gx * gy).mean(axis=1), (gy * gy).mean(axis=1)],
                    axis=1)


def _along_the_grain(cells: list[np.ndarray], table: list[np.ndarray]) -> np.ndarray:
    """Per cell, whether its texture is the table's grain: the table's patches (``table``)
    vary mostly across one direction (``empty_grain_coherence``: wood grain, plank seams,
    stripes), and along that grain the cell varies no more than ``empty_grain_factor`` times
    as much as the table's median patch does. Grain and seams run along the grain; a card's
    print (pips, a digit, its outline) has edges every way, so it varies along the grain too
    (7 to 40 times the table's median patch on the project's sets, bare cells up to 1.9)."""
    cfg = section("grid")
    if not cells or len(table) < 2:
        return np.zeros(len(cells), bool)
    patches = _gradient_moments(table)
    a, b, c = patches.mean(axis=0)
    spread, directions = np.linalg.eigh(np.array([[a, b], [b, c]], np.float64))
    coherence = (spread[1] - spread[0]) / max(float(spread[1] + spread[0]), 1e-9)
    if coherence < float(cfg["empty_grain_coherence"]):
        return np.zeros(len(cells), bool)  # no one direction: every texture is the table's way
    ex, ey = directions[:, 0]  # along the grain: the direction the table varies least

    def along(m: np.ndarray) -> np.ndarray:
        return np.asarray(np.sqrt(np.maximum(m[:, 0] * ex * ex + 2 * m[:, 1] * ex * ey
                                             + m[:, 2] * ey * ey, 0.0)))

    limit = float(np.median(along(patches))) * float(cfg["empty_grain_factor"])
    return np.asarray(along(_gradient_moments(cells)) <= limit, bool)


def _card_coloured(medians: np.ndarray, ref: np.ndarray, look: GridLook | None) -> np.ndarray:
    """Per cell (its median colour), whether it is nearer to some value's card colour seen
    in calibration (:func:`learn_value_colours`) than to the surface it is held to (``ref``:
    one colour, or one per cell), as :func:`_colour_key` compares colours, where that card
    colour lies well apart from the surface: at least ``empty_card_colour_apart`` of its
    calibration cards' spread (``value_spread``). Cards of (nearly) the surface's own colour
    never count, so cream paper on linen leaves the other tests to decide."""
    if look is None or len(look.value_colours) != 6 or not len(medians):
        return np.zeros(len(medians), bool)
    keys = _colour_key(medians)
    surface = _colour_key(np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3),
                                          medians.shape))
    seen = ~np.isnan(look.value_colours).any(axis=1)
    if not seen.any():
        return np.zeros(len(medians), bool)
    cards, spread = look.value_colours[seen], look.value_spread[seen]
    to_card = np.linalg.norm(cards[None, :, :] - keys[:, None, :], axis=2)
    apart = np.linalg.norm(cards[None, :, :] - surface[:, None, :], axis=2) \
        >= float(section("grid")["empty_card_colour_apart"]) * spread[None, :]
    nearer = to_card < np.linalg.norm(keys - surface, axis=1)[:, None]
    return np.asarray((nearer & apart).any(axis=1), bool)


def _median_hue_off(medians: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Per cell (its median colour), how far its shares of B, G and R lie from those of
    ``ref`` (one colour, or one per cell): the largest of the three differences."""
    hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
    ref = np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3), medians.shape)
    ref_hue = ref / (ref.sum(axis=1, keepdims=True) + 1.0)
    return np.asarray(np.abs(hue - ref_hue).max(axis=1))


def _strays(medians: np.ndarray, ref: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """Per cell (its median colour), whether it strays from the bare table as a thing over
    it does, not as the light does. Grain and noise spread a bare cell's pixels around the
    table's colour (the per-pixel tolerance allows that), but the middle of them stays on it;
    a hand of nearly the table's colour (tan skin on pine, or on a pale mat once
    white-balanced) moves the whole cell, its median more than ``empty_median_hue`` from the
    table's (``ref``: one colour, or one per cell). A lamp or light falling off moves the
    other bare cells (``bare``: those that pass every other test) alike, so a cell stray from
    the table counts as bare still when it is within ``empty_median_hue`` of their median
    (of those of them not stray themselves, when there are two: cards passing for the table
    would pull the median towards their own colour); with fewer than two such cells to compare
    with, nothing tells a lamp from a hand."""
    limit = float(section("grid")["empty_median_hue"])
    hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
    stray = _median_hue_off(medians, ref) > limit
    first = stray.copy()
    for k in np.flatnonzero(stray):
        peers = np.flatnonzero(bare)
        peers = peers[peers != k]
        # the peers that show the table's own colour, when there are two: cards of one colour
        # passing for the table beside bare cells would pull all the peers' median between the
        # two colours, near both (a lamp moves every bare cell, and then none is calm)
        calm = peers[~first[peers]]
        if len(calm) >= 2:
            peers = calm
        if len(peers) >= 2:
            stray[k] = bool(np.abs(hue[k] - np.median(hue[peers], axis=0)).max() > limit)
    return np.asarray(stray, bool)


def _bare_patches(medians: np.ndarray, look: GridLook | None) -> np.ndarray | None:
    """Of the table patches around the area (their median colours), those showing the
    surface the calibration's empty cells showed, when that is not what most patches show
    (a mat larger than the area: the patches reach past its edge onto the table in some
    pictures and not in others); None to keep them all. The surface is the group of at least
    ``table_neighbours`` + 1 patches of one colour (``_like``) nearest to a calibration
    picture's empty cells, and it must be near them loosely (``mat_hue_tolerance``,
    ``mat_brightness_ratio``: the lamps differ between pictures)."""
    cfg = section("grid")
    if look is None or not len(look.bare) or len(medians) <= int(cfg["table_neighbours"]):
        return None
    # each patch's group: the patches of its colour (row i: every patch against patch i)
    n = len(medians)
    groups = (_like(np.tile(medians, (n, 1))[:, None, :], np.repeat(medians, n, axis=0))
              >= 1.0).reshape(n, n)
    size = groups.sum(axis=1)
    keys = _colour_key(medians)
    bare_keys = _colour_key(look.bare)
    closeness = np.linalg.norm(keys[:, None, :] - bare_keys[None, :, :], axis=2).min(axis=1)
    closeness[size <= int(cfg["table_neighbours"])] = np.inf
    if not np.isfinite(closeness).any():
        return None
    best = int(np.argmin(closeness))
    keep = groups[best]
    if keep.sum() * 2 > len(medians):
        return None  # most patches show that surface already: their median is its colour
    ref = np.median(medians[keep], axis=0)
    hue = ref / (ref.sum() + 1.0)
    bare_hue = look.bare / (look.bare.sum(axis=1, keepdims=True) + 1.0)
    ratio = (ref.sum() + 1.0) / (look.bare.sum(axis=1) + 1.0)
    loose = float(cfg["mat_brightness_ratio"])
    near = (np.abs(hue[None, :] - bare_hue).max(axis=1) <= float(cfg["mat_hue_tolerance"])) \
        & (ratio >= 1 / loose) & (ratio <= loose)
    return keep if near.any() else None


def _texture_limit(texture_ref: float) -> float:
    cfg = section("grid")
    return texture_ref * float(cfg["empty_texture_factor"]) + float(cfg["empty_texture_floor"])


def learn_bare(cells_by_image: list[list[np.ndarray]], tables: list[list[np.ndarray]]
               ) -> tuple[str, np.ndarray, float]:
    """What the bare surface inside the area is: ``table`` when the calibration's empty
    cells show their own picture's table, else ``mat``; the mat's colour in each picture
    (BGR, white-balanced) and its texture."""
    share = float(section("grid")["empty_colour_share"])
    colours: list[np.ndarray] = []
    textures: list[float] = []
    table_like: list[bool] = []
    for cells, table in zip(cells_by_image, tables, strict=True):
        if not cells:
            continue
        px, _, texture = _stats(cells)
        colours.append(np.median(px.reshape(-1, 3), axis=0).astype(np.float32))
        textures.extend(float(t) for t in texture)
        if table:
            # on a table of two tones finer than a cell, most of them show its tones in its
            # share: a checked cloth has no one colour, and the median of its patches is a
            # blend of its tones (grey and white checks: a pale grey that a cream mat on it
            # matched, third art g2644, so its empty cells were held to the checks and none
            # was surely bare)
            checked = bool(section("grid")["bare_checked_by_tones"]) and checked_table(table)
            ref = np.median(_stats(table)[1], axis=0)
            table_like.append(bool(not checked and _like(px, ref).mean() >= share)
                              or 2 * len(patterned_bare(cells, list(range(len(cells))), table))
                              > len(cells))
    if not colours:
        return "table", np.zeros((0, 3), np.float32), 0.0
    mode = "table" if table_like and np.mean(table_like) > 0.5 else "mat"
    return mode, np.array(colours, np.float32), float(np.median(textures))

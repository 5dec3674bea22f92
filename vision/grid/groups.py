"""Rules over the whole grid after each cell was judged: cards are laid edge to edge, so an
empty reading beside a cell the reader could not read (:func:`_beside_unread`) or cut off from
the other cards (:func:`_cut_off`) is declined rather than trusted, and so is every empty
reading in a picture where something hides a play-area marker (:func:`_under_a_hidden_marker`).
"""

from __future__ import annotations


def _beside_unread(values: list[int | None], confs: list[float], reach: int) -> list[int]:
    """The cells read as empty that lie within ``reach`` cells (rows, columns or diagonals) of a
    cell the reader could not read, or of such an empty cell in turn.

    A hand or sleeve the colour of the table hides a card as the bare surface would: its cells
    pass every test of an empty cell (skin on pine, a grey-green sleeve on a grey mat, a dark arm
    on a dim green mat; confidence up to 1.00). What it leaves elsewhere is a card it only half
    covers, which the reader declines. So an empty reading next to a declined cell is asked, not
    given; a value read is never touched (a hand shows no card's print). In the app this costs
    nothing: an empty cell and a declined one both leave the grid as it was."""
    unread = [i for i in range(25) if values[i] is None and confs[i] == 0.0]
    asked: list[int] = []
    while unread:
        i = unread.pop()
        r, c = divmod(i, 5)
        for j in range(25):
            rj, cj = divmod(j, 5)
            if (values[j] is None and confs[j] > 0.0 and j not in asked
                    and max(abs(rj - r), abs(cj - c)) <= reach):
                asked.append(j)
                unread.append(j)
    return sorted(asked)


def _beside_hand(values: list[int | None], confs: list[float], card_like: list[bool],
                 reach: int) -> list[int]:
    """The cells read as a value that lie within ``reach`` cells (rows, columns or diagonals)
    of a cell the reader could not read and that looks like no card either (``card_like``
    False: nearer to the bare surface than to any calibration card, or to neither).

    A hand over the cards leaves the cards under it unread, and looking like neither a card
    nor the surface; its fingers reach farther than its palm, and a finger lying across a
    card's middle hides a pip and leaves the rest of the print (hard own art h45021 g002: a 5
    beside the hand, its middle pip under a finger, read as 4). Beside such a cell, a card read
    is asked too. A picture with a cell not read is not read whole anyway: this asks more of
    it, and changes no picture that was."""
    unread = [i for i in range(25)
              if values[i] is None and confs[i] == 0.0 and not card_like[i]]
    return sorted(j for j in range(25) if values[j] is not None and confs[j] > 0.0
                  and any(max(abs(j // 5 - i // 5), abs(j % 5 - i % 5)) <= reach
                          for i in unread))


def _cut_off(values: list[int | None], confs: list[float]) -> list[int]:
    """The empty readings edge to edge with a card of a smaller group, when the cards read do
    not all touch.

    Cards are laid edge to edge with a card already down (RULINGS, Robot Master: placement), so
    the cards on the table always form one group. Read cards in two groups (counting a cell
    the reader declined as one that may hold a card) mean a card between them was read as an
    empty cell: an arm the table's colour lying along a row of cards hides them as the bare
    surface would, and where its edges only graze the cards beside it those are still read,
    leaving no declined cell for :func:`_beside_unread` to start from (own art h10806 g035:
    four cards of row 1 read as empty cells at 1.00, the cards above and below read). Only
    empty readings are asked, never a value; a picture read right is never cut in two."""
    held = [values[i] is not None or confs[i] == 0.0 for i in range(25)]
    group = [-1] * 25
    with_cards: set[int] = set()  # groups holding a card read (not declined cells alone)
    for start in range(25):
        if not held[start] or group[start] >= 0:
            continue
        group[start], todo = start, [start]
        while todo:
            i = todo.pop()
            if values[i] is not None:
                with_cards.add(start)
            r, c = divmod(i, 5)
            for rj, cj in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rj * 5 + cj
                if 0 <= rj < 5 and 0 <= cj < 5 and held[j] and group[j] < 0:
                    group[j] = start
                    todo.append(j)
    if len(with_cards) < 2:
        return []
    # the hidden cards lie edge to edge with the smaller groups (whichever side of them the
    # arm lies): the empty readings touching those are asked (two groups alike: both)
    size = {g: group.count(g) for g in with_cards}
    largest = [g for g in with_cards if size[g] == max(size.values())]
    apart = {g for g in with_cards if len(largest) > 1 or g != largest[0]}
    asked = []
    for i in range(25):
        r, c = divmod(i, 5)
        if values[i] is None and confs[i] > 0.0 and any(
                0 <= rj < 5 and 0 <= cj < 5 and group[rj * 5 + cj] in apart
                and values[rj * 5 + cj] is not None
                for rj, cj in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
            asked.append(i)
    return asked


def _under_a_hidden_marker(values: list[int | None], confs: list[float]) -> list[int]:
    """The cells read as empty, in a picture where one play-area marker was not seen (its
    corner completed from the other three): what hides a marker, an arm reaching in over the
    area's corner, may as well hide a card, and a hand the colour of the surface hides it as
    the bare surface would, leaving nothing half covered for :func:`_beside_unread` to start
    from (other art h11522 re-made with grids only, g004 (1, 2): a dark hand on a dark brown
    mat lay wholly over a 4, read as an empty cell at 1.00; its sleeve hid a corner marker).
    Only empty readings are asked, never a value (a hand shows no card's print). Markers are
    stuck down where nothing lies on them while a game is set up, so a clean picture shows
    all four."""
    return [i for i in range(25) if values[i] is None and confs[i] > 0.0]

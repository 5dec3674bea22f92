"""Robo Factory game records: read (validating every field), replay and write.

The format is DESIGN.md's. Every problem raises :class:`~companion.errors.RecordError` whose
``where`` names the turn (and attempt) and whose ``field`` names the field, e.g.
``turn 2, attempt 1, robots.Bob: 'red-green-purple' is not a robot ...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import RecordError, RuleError
from companion.records.shape import duplicates, json_list, json_object, no_unknown, show
from companion.robots import Palette, Robot
from companion.rules.robo_factory import Options, Penalty, RoboFactoryGame, Stage, Tie

GAME = "robo-factory"
TOP_KEYS = {"game", "players", "first_customer", "options", "turns"}
TURN_KEYS = {"customer", "order", "board", "purchases", "attempts"}
ATTEMPT_KEYS = {"robots", "eureka"}

# Replay is hot (the benchmark replays thousands of records a second), so each step below first
# tries the shape every valid record has, decided with a few C-level operations: a plain dict
# (``pairs`` makes a JsonObject only for an object with a key given twice) whose keys are all
# known, robots spelt exactly as one of the 64 cards. Anything else takes the careful path, the
# one that names what is wrong; the quick test only ever accepts what the careful path accepts.
_EMPTY: dict[str, Any] = {}  # read only
_OPTIONS = {(t.value, p.value): Options(t, p) for t in Tie for p in Penalty}
_TURN_OVER = Stage.OVER  # (an enum member read off its class is slow in Python 3.11)


def _object(value: Any, where: str, field: str) -> dict[str, Any]:
    # Whole objects (record, turn, attempt) name a repeated key by itself, inner ones by path.
    whole = field in ("record", "turn", "attempt")
    if isinstance(value, dict) and field == "purchases" and duplicates(value):
        buyer = duplicates(value)[0]
        raise RecordError(
            where, f"purchases.{buyer}", f"{buyer} buys twice; one data tile per Customer turn"
        )
    return json_object(value, where, "" if whole else field)


def _robot(palette: Palette, value: Any, where: str, field: str) -> Robot:
    try:
        return palette.parse(value)
    except RuleError as exc:
        raise RecordError(where, field, str(exc)) from None


def parse_options(value: Any) -> Options:
    if value is None:
        return Options()
    if type(value) is dict and len(value) == 2:  # both options spelt out, as exports write them
        tie, penalty = value.get("tie"), value.get("penalty")
        if type(tie) is str and type(penalty) is str:
            known = _OPTIONS.get((tie, penalty))
            if known is not None:
                return known
    obj = _object(value, "", "options")
    no_unknown(obj, {"tie", "penalty"}, "", "options.")
    try:
        tie = Tie(obj.get("tie", Tie.SHARE.value))
    except ValueError:
        raise RecordError(
            "", "options.tie", f"expected 'share' or 'extra-round', got {show(obj['tie'])}"
        ) from None
    try:
        penalty = Penalty(obj.get("penalty", Penalty.RULEBOOK.value))
    except ValueError:
        raise RecordError(
            "", "options.penalty", f"expected 'rulebook' or 'faq', got {show(obj['penalty'])}"
        ) from None
    return Options(tie=tie, penalty=penalty)


def new_game(record: Mapping[str, Any]) -> RoboFactoryGame:
    """The game a record sets up, before any turn."""
    obj = _object(record, "", "record")
    no_unknown(obj, TOP_KEYS, "")
    if obj.get("game") != GAME:
        raise RecordError("", "game", f"expected {GAME!r}, got {show(obj.get('game'))}")
    if "players" not in obj:
        raise RecordError("", "players", "missing")
    players = json_list(obj["players"], "", "players")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise RecordError("", f"players[{i}]", f"expected a name, got {show(name)}")
    first = obj.get("first_customer")
    if first is not None and not isinstance(first, str):
        raise RecordError("", "first_customer", f"expected a player's name, got {show(first)}")
    options = parse_options(obj.get("options"))
    try:
        return RoboFactoryGame(players, first_customer=first, options=options)
    except RuleError as exc:
        field = "first_customer" if first is not None and first not in players else "players"
        raise RecordError("", field, str(exc)) from None


def load(record: Mapping[str, Any], palette: Palette) -> RoboFactoryGame:
    """Validate a whole record and return the game it reaches."""
    game = new_game(record)
    turns = json_list(record.get("turns", None), "", "turns") if "turns" in record else None
    if turns is None:
        raise RecordError("", "turns", "missing (use [] for a game that has not started)")
    known = palette.cards_by_text()
    for index, turn in enumerate(turns, start=1):
        _apply_turn(game, palette, known, turn, index)
    return game


def _apply_turn(
    game: RoboFactoryGame, palette: Palette, known: Mapping[str, Robot], value: Any, number: int
) -> None:
    where = f"turn {number}"
    if type(value) is dict and value.keys() <= TURN_KEYS:
        turn: dict[str, Any] = value
    else:
        turn = _object(value, where, "turn")
        no_unknown(turn, TURN_KEYS, where)
    customer = turn.get("customer")
    if not isinstance(customer, str):
        raise RecordError(where, "customer", f"expected a player's name, got {show(customer)}")
    if game.finished:
        raise RecordError(where, "customer", f"the game has already ended after turn {number - 1}")
    try:
        game.begin_turn(customer)
    except RuleError as exc:
        raise RecordError(where, "customer", str(exc)) from None

    if "order" not in turn:
        _nothing_after(turn, where, "order", ("board", "purchases", "attempts"))
        return
    text = turn["order"]
    order = known.get(text) if type(text) is str else None
    game.set_order(order if order is not None else _robot(palette, text, where, "order"))

    if "board" not in turn:
        _nothing_after(turn, where, "board", ("purchases", "attempts"))
        return
    board = turn["board"]
    laid = False
    if type(board) is list and len(board) == 3:
        try:  # three cards, spelt right, all different from each other and from the order
            game.set_board([known[board[0]], known[board[1]], known[board[2]]])
            laid = True
        except (KeyError, TypeError, RuleError):
            pass  # set_board changes nothing when it refuses
    if not laid:
        _lay_board(game, palette, turn, where)

    purchases = turn.get("purchases", _EMPTY)
    if type(purchases) is not dict:
        purchases = _object(purchases, where, "purchases")
    for buyer, card_text in _in_seat_order(game, purchases) if purchases else ():
        card = known.get(card_text) if type(card_text) is str else None
        if card is None:
            card = _robot(palette, card_text, where, f"purchases.{buyer}")
        try:
            game.buy(buyer, card)
        except RuleError as exc:
            raise RecordError(where, f"purchases.{buyer}", str(exc)) from None

    attempts = turn.get("attempts", [])
    if type(attempts) is not list:
        attempts = json_list(attempts, where, "attempts")
    for a, attempt_value in enumerate(attempts, start=1):
        _apply_attempt(game, palette, known, attempt_value, f"{where}, attempt {a}")


def _lay_board(
    game: RoboFactoryGame, palette: Palette, turn: Mapping[str, Any], where: str
) -> None:
    """Lay the turn's board cards, naming the first card (or the field) at fault."""
    board = json_list(turn["board"], where, "board")
    # A record may stop while the board cards are being laid, but nothing follows a short board.
    later = bool(turn.get("purchases")) or bool(turn.get("attempts"))
    if len(board) > 3 or (later and len(board) != 3):
        raise RecordError(where, "board", f"expected 3 board cards, got {len(board)}")
    cards = [_robot(palette, text, where, f"board[{i}]") for i, text in enumerate(board)]
    if len(cards) == 3:
        try:
            game.set_board(cards)
            return
        except RuleError:
            pass  # laid one by one below, so the error names the card at fault
    for i, card in enumerate(cards):
        try:
            game.add_board_card(card)
        except RuleError as exc:
            raise RecordError(where, f"board[{i}]", str(exc)) from None


def _apply_attempt(
    game: RoboFactoryGame, palette: Palette, known: Mapping[str, Robot], value: Any, where: str
) -> None:
    if type(value) is dict and value.keys() <= ATTEMPT_KEYS:
        attempt: dict[str, Any] = value
    else:
        attempt = _object(value, where, "attempt")
        no_unknown(attempt, ATTEMPT_KEYS, where)
    if game.turns[-1].stage is _TURN_OVER:
        try:
            game.check_attempt({}, {})
        except RuleError as exc:
            raise RecordError(where, "attempt", str(exc)) from None
    if "robots" not in attempt:
        raise RecordError(where, "robots", "missing")
    robots_obj = attempt["robots"]
    if type(robots_obj) is not dict:
        robots_obj = _object(robots_obj, where, "robots")
    robots: dict[str, Robot] = {}
    try:  # every robot spelt as one of the cards (a loop: cheaper than a comprehension here)
        for name, text in robots_obj.items():
            robots[name] = known[text]
    except (KeyError, TypeError):  # the first that is not, in the record's order, is named
        robots = {
            name: _robot(palette, text, where, f"robots.{name}")
            for name, text in robots_obj.items()
        }
    eureka_obj = attempt.get("eureka", _EMPTY)
    if type(eureka_obj) is not dict:
        eureka_obj = _object(eureka_obj, where, "eureka")
    eureka: dict[str, int] = {}
    for name, roll in eureka_obj.items():
        try:
            game.check_eureka(name)
        except RuleError as exc:
            raise RecordError(where, f"eureka.{name}", str(exc)) from None
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
            raise RecordError(
                where, f"eureka.{name}", f"a d6 roll must be 1 to 6, got {show(roll)}"
            )
        eureka[name] = roll
    try:
        game.attempt(robots, eureka)  # checks first, changes nothing when it refuses
    except RuleError as exc:
        raise RecordError(where, "robots", str(exc)) from None


def _in_seat_order(game: RoboFactoryGame, obj: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The items of ``obj`` by seat; names the game does not know come last (and are refused)."""
    items = []
    for p in game.players:  # (a loop: cheaper than a comprehension over a handful of names)
        if p in obj:
            items.append((p, obj[p]))
    if len(items) != len(obj):
        items.extend((k, v) for k, v in obj.items() if k not in game.players)
    return items


def _nothing_after(
    turn: Mapping[str, Any], where: str, missing: str, later: tuple[str, ...]
) -> None:
    for key in later:
        value = turn.get(key)
        if value not in (None, [], {}):
            raise RecordError(where, missing, f"missing, but the turn has {key}")


def summary(game: RoboFactoryGame) -> dict[str, Any]:
    """The replay object of DESIGN.md for the state ``game`` has reached."""
    turns = []
    players = game.players
    for turn in game.turns:
        # (plain loops: cheaper than comprehensions over a handful of items)
        tiles = turn.purchase_tiles
        purchase_tiles = {}
        if tiles:
            for p in players:
                if p in tiles:
                    purchase_tiles[p] = tiles[p]
        entry: dict[str, Any] = {
            "customer": turn.customer,
            "board_tiles": turn.board_tiles,
            "purchase_tiles": purchase_tiles,
        }
        attempts = turn.attempts
        if attempts and not attempts[0].correct:
            entry["feedback_tiles"] = attempts[0].feedback_tiles
        correct = []
        for attempt in attempts:
            correct.append(list(attempt.correct))
        entry["correct"] = correct
        turns.append(entry)
    return {
        "game": GAME,
        "finished": game.finished,
        "cubes": {p: game.cubes[p] for p in game.players},
        "winners": game.winners,
        "turns": turns,
    }


def replay(record: Mapping[str, Any], palette: Palette) -> dict[str, Any]:
    return summary(load(record, palette))


def to_record(game: RoboFactoryGame) -> dict[str, Any]:
    """Write the game as a record (the inverse of :func:`load`)."""
    turns: list[dict[str, Any]] = []
    for turn in game.turns:
        entry: dict[str, Any] = {"customer": turn.customer}
        if turn.order is not None:
            entry["order"] = str(turn.order)
        if turn.board:
            entry["board"] = [str(c) for c in turn.board]
        if turn.purchases:
            entry["purchases"] = {
                p: str(turn.purchases[p]) for p in game.players if p in turn.purchases
            }
        if turn.attempts:
            entry["attempts"] = []
            for attempt in turn.attempts:
                a: dict[str, Any] = {"robots": {m: str(r) for m, r in attempt.robots.items()}}
                if attempt.eureka:
                    a["eureka"] = dict(attempt.eureka)
                entry["attempts"].append(a)
        turns.append(entry)
    return {
        "game": GAME,
        "players": list(game.players),
        "first_customer": game.first_customer,
        "options": game.options.to_json(),
        "turns": turns,
    }

"""Turn a game record into the commands a table would give the session to play it.

Used to prove that playing a game through the session gives the same state as replaying its
record, by the kill -9 test that plays a scripted game, and by the demo's autoplay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import commands as c
from companion.records.robo_factory import parse_options
from companion.session import Setup
from companion.tables.robo_factory import RoboFactorySetup
from companion.tables.robot_master import RobotMasterSetup


def script_for(
    record: Mapping[str, Any], colours: tuple[str, ...] | None = None
) -> tuple[Setup, list[c.Command]]:
    """The setup and commands that play ``record`` (a valid record) at the table."""
    if record.get("game") == "robot-master":
        return _robot_master(record)
    return _robo_factory(record, colours)


def _robo_factory(
    record: Mapping[str, Any], colours: tuple[str, ...] | None
) -> tuple[Setup, list[c.Command]]:
    players = tuple(record["players"])
    first = record.get("first_customer") or players[0]
    options = parse_options(record.get("options"))
    setup = (
        RoboFactorySetup(players, first, options)
        if colours is None
        else RoboFactorySetup(players, first, options, colours)
    )
    out: list[c.Command] = []
    for index, turn in enumerate(record["turns"]):
        if index > 0:
            out.append(c.NextTurn())
        customer = turn["customer"]
        makers = [p for p in players if p != customer]
        if "order" not in turn:
            continue
        out.append(c.ScanOrder(turn["order"]))
        out.extend(c.LayBoardCard(card) for card in turn.get("board", []))
        purchases = turn.get("purchases", {})
        out.extend(c.Buy(p, purchases[p]) for p in players if p in purchases)
        for number, attempt in enumerate(turn.get("attempts", []), start=1):
            if number == 2:
                out.extend(c.FeedbackSeen(m) for m in makers)
            out.append(c.StartProduction())
            robots = attempt["robots"]
            out.extend(c.SetRobot(m, robots[m]) for m in makers)
            eureka = attempt.get("eureka", {})
            out.extend(c.CallEureka(m) for m in makers if m in eureka)
            out.append(c.StartReveal())
            out.extend(c.SetRoll(m, eureka[m]) for m in makers if m in eureka)
            out.append(c.CommitReveal())
    return setup, out


def _robot_master(record: Mapping[str, Any]) -> tuple[Setup, list[c.Command]]:
    from companion.rules.robot_master import Frame, Side

    if "moves" not in record:
        raise ValueError("a grid record has no move order to play")
    frame = Frame(record.get("options", {}).get("frame", "fixed"))
    moves = record["moves"]
    first_name = moves[0]["player"] if moves else record.get("first", record["rows"])
    first = Side.ROWS if first_name == record["rows"] else Side.COLUMNS
    setup = RobotMasterSetup(record["rows"], record["columns"], frame, first)
    out: list[c.Command] = [c.PlaceStart(record["start"]["value"])]
    for move in moves:
        cell = move["cell"]
        text = f"{cell['x']},{cell['y']}" if isinstance(cell, dict) else str(cell)
        out.append(c.PlaceCard(text, move["value"]))
    return setup, out

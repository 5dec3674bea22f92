"""Plays scripted games into a journal, printing "ack GAME N" after each acknowledged event.

Run by test_crash.py, which kills it with SIGKILL at random moments. On start it resumes the
unfinished game, if any, exactly where the journal left it.
"""

from __future__ import annotations

import random
import sys

from companion.generate_robo_factory import random_record
from companion.journal import Journal
from companion.script import script_for
from companion.service import TableService


def script(game_number: int):  # type: ignore[no-untyped-def]
    return script_for(random_record(random.Random(game_number), players=3 + game_number % 4))


def main() -> None:
    path, games = sys.argv[1], int(sys.argv[2])
    service = TableService(Journal(path))
    session = service.resume()
    while True:
        played = len(service.journal.games())
        if session is None:
            if played >= games:
                print("done", flush=True)
                return
            setup, commands = script(played)
            session = service.new_game(setup)
        else:
            setup, commands = script(played - 1)
        start = len(session.live)
        for index in range(start, len(commands)):
            result = service.submit(commands[index])
            if not result.accepted:
                print(f"refused {index} {result.reason}", flush=True)
                sys.exit(1)
            print(f"ack {service.game_id} {index + 1}", flush=True)
        session = None


if __name__ == "__main__":
    main()

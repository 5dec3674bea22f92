"""The command line: ``robo-companion COMMAND ...``.

Core commands are implemented here; commands that need an adapter package (vision, siren board,
UI) are handed to that package's own ``cli.main(argv)`` and imported only then, so the core runs
without Kivy or OpenCV installed. Errors reach the user as one plain line, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from companion.errors import CompanionError

#: command -> module whose ``main(argv) -> int`` handles it (argv excludes the command itself)
DELEGATED: dict[str, tuple[str, str]] = {
    "vision": ("vision.cli", "reading the camera (vision)"),
    "markers": ("vision.markers_cli", "printing marker sheets (vision)"),
    "siren": ("hardware.cli", "the siren board (hardware)"),
    "demo": ("ui.launch", "the touchscreen app (ui)"),
    "run": ("ui.launch", "the touchscreen app (ui)"),
}
#: bench NAME -> module whose ``main(argv) -> int`` runs that benchmark
BENCHES: dict[str, tuple[str, str]] = {
    "rules": ("companion.bench", "the rules benchmark"),
    "siren": ("hardware.bench", "the siren benchmark (hardware)"),
    "vision": ("vision.bench", "the vision benchmark (vision)"),
    "ui": ("ui.bench", "the UI benchmark (ui)"),
}
EXTRA_FOR = {"vision": "vision", "hardware": "hardware", "ui": "ui"}


def _run_delegated(module_name: str, what: str, argv: list[str]) -> int:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        package = module_name.split(".")[0]
        extra = EXTRA_FOR.get(package, "all")
        missing = exc.name or "a module"
        print(
            f"robo-companion: {what} needs {missing!r}, which is not installed. "
            f"Install it with: pip install 'robo-companion[{extra}]'",
            file=sys.stderr,
        )
        return 3
    entry: Callable[[list[str]], int] = module.main
    return entry(argv)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="robo-companion",
        description="Runs Robo Factory and scores Robot Master at the table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("replay", help="validate and replay a game record; print the outcome")
    p.add_argument("record", help="a game record (JSON), or - for standard input")

    sub.add_parser("history", help="list the games in the journal")
    p = sub.add_parser("export", help="print a game from the journal as a record")
    p.add_argument("game", help="the game id shown by 'history'")
    p.add_argument("--out", help="write to this file instead of standard output")

    p = sub.add_parser("config", help="configuration")
    config_sub = p.add_subparsers(dest="config_command", metavar="ACTION")
    check = config_sub.add_parser("check", help="validate the config file in force")
    check.add_argument("--file", help="check this file instead")
    config_sub.add_parser("example", help="print a config file with every default")

    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    p.add_argument("name", choices=sorted(BENCHES))
    p.add_argument("args", nargs=argparse.REMAINDER)

    p = sub.add_parser("doctor", help="check camera, siren board, display, config and journal")
    p.add_argument("args", nargs=argparse.REMAINDER)

    for name, (_, what) in DELEGATED.items():
        p = sub.add_parser(name, help=what, add_help=False)
        p.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if args_list and (args_list[0] in DELEGATED or args_list[0] == "doctor"):
        # argparse's REMAINDER drops leading options ("demo --autoplay"): hand them over whole.
        args = parser.parse_args(args_list[:1])
        args.args = args_list[1:]
    else:
        args = parser.parse_args(args_list)
    try:
        return _dispatch(parser, args, args_list)
    except CompanionError as exc:
        print(f"robo-companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: list[str]) -> int:
    command = args.command
    if command is None:
        parser.print_help()
        return 0
    if command == "replay":
        from companion import replay

        return replay.cli(args.record)
    if command in ("history", "export"):
        from companion import history

        if command == "history":
            return history.cli_history()
        return history.cli_export(args.game, args.out)
    if command == "config":
        from companion import config as config_module

        if args.config_command == "example":
            print(config_module.example_toml(), end="")
            return 0
        if args.config_command == "check":
            from pathlib import Path

            path = Path(args.file) if args.file else config_module.find_config()
            cfg = config_module.load(path)
            where = str(cfg.source) if cfg.source else "no config file found; defaults apply"
            print(f"config OK ({where})")
            return 0
        parser.parse_args(["config", "--help"])
        return 2
    if command == "bench":
        module_name, what = BENCHES[args.name]
        return _run_delegated(module_name, what, list(args.args))
    if command == "doctor":
        return _run_delegated("companion.doctor", "the doctor", list(args.args))
    module_name, what = DELEGATED[command]
    # `run` and `demo` share one entry point; it learns which from argv[0].
    rest = list(args.args)
    if command in ("demo", "run"):
        rest = [command, *rest]
    return _run_delegated(module_name, what, rest)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

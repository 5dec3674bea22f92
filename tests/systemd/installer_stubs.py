"""One recording stand-in for every system command the installer runs.

`write_wrapper` puts a small sh script named after the command on a PATH directory; it calls
this file with the command's name first.

Each call is appended to $STUB_LOG as a JSON list. The stubs keep just enough state for the
installer's own checks to see the effect of a previous run (packages in $STUB_STATE/dpkg, users
and groups in ROOT/etc/passwd and ROOT/etc/group, enabled units as symlinks), which is what
makes "the second run changes nothing" testable.

Environment: STUB_LOG, STUB_STATE, STUB_ROOT (the fake root), STUB_UNAVAILABLE (comma-separated
packages apt-cache does not know), STUB_NUMPY (the OS numpy version, empty: none),
STUB_PYTHON (the real interpreter for the venv's robo-companion), STUB_SRC (the checkout).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

STUB = Path(__file__).resolve()


def write_wrapper(path: Path, name: str, python: str = sys.executable) -> None:
    path.write_text(f'#!/bin/sh\nexec "{python}" "{STUB}" {name} "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def log(call: list[str]) -> None:
    with open(os.environ["STUB_LOG"], "a", encoding="utf-8") as f:
        f.write(json.dumps(call) + "\n")


def state_file() -> Path:
    return Path(os.environ["STUB_STATE"]) / "dpkg"


def installed() -> set[str]:
    path = state_file()
    return set(path.read_text().split()) if path.exists() else set()


def root_of(args: list[str]) -> tuple[Path, list[str]]:
    rest: list[str] = []
    root = Path("/")
    i = 0
    while i < len(args):
        if args[i] in ("--root", "-R"):
            root = Path(args[i + 1])
            i += 2
            continue
        if args[i].startswith("--root="):
            root = Path(args[i].split("=", 1)[1])
        else:
            rest.append(args[i])
        i += 1
    if root == Path("/"):
        # The installer must never touch this machine's accounts from a test.
        sys.exit(f"stub: {sys.argv[1]} called without --root")
    return root, rest


def read_table(path: Path) -> list[list[str]]:
    return [line.split(":") for line in path.read_text().splitlines() if line]


def write_table(path: Path, rows: list[list[str]]) -> None:
    path.write_text("".join(":".join(row) + "\n" for row in rows))


def next_id(rows: list[list[str]]) -> str:
    return str(max([int(r[2]) for r in rows if 900 <= int(r[2]) < 1000] + [899]) + 1)


def option(rest: list[str], name: str) -> str | None:
    return rest[rest.index(name) + 1] if name in rest else None


def add_member(root: Path, user: str, groups: list[str]) -> None:
    rows = read_table(root / "etc/group")
    for row in rows:
        if row[0] in groups:
            members = [m for m in row[3].split(",") if m]
            if user not in members:
                row[3] = ",".join([*members, user])
    write_table(root / "etc/group", rows)


def main() -> int:
    name, args = sys.argv[1], sys.argv[2:]
    log([name, *args])
    if name == "apt-get":
        if "install" in args:
            packages = [a for a in args[args.index("install") + 1 :] if not a.startswith("-")]
            state_file().write_text("\n".join(sorted(installed() | set(packages))) + "\n")
        return 0
    if name == "apt-cache":
        unavailable = set(filter(None, os.environ.get("STUB_UNAVAILABLE", "").split(",")))
        return 100 if args[-1] in unavailable else 0
    if name == "dpkg-query":
        if args[-1] in installed():
            print("installed", end="")
            return 0
        return 1
    if name == "groupadd":
        root, rest = root_of(args)
        rows = read_table(root / "etc/group")
        rows.append([rest[-1], "x", next_id(rows), ""])
        write_table(root / "etc/group", rows)
        return 0
    if name == "useradd":
        root, rest = root_of(args)
        user = rest[-1]
        groups = read_table(root / "etc/group")
        gid = next_id(groups)
        groups.append([user, "x", gid, ""])
        write_table(root / "etc/group", groups)
        users = read_table(root / "etc/passwd")
        users.append([user, "x", gid, gid, option(rest, "--comment") or "",
                      option(rest, "--home-dir") or "", option(rest, "--shell") or ""])
        write_table(root / "etc/passwd", users)
        add_member(root, user, (option(rest, "--groups") or "").split(","))
        return 0
    if name == "usermod":
        root, rest = root_of(args)
        add_member(root, rest[-1], (option(rest, "--groups") or "").split(","))
        return 0
    if name == "userdel":
        root, rest = root_of(args)
        user = rest[-1]
        users = [r for r in read_table(root / "etc/passwd") if r[0] != user]
        write_table(root / "etc/passwd", users)
        groups = [r for r in read_table(root / "etc/group") if r[0] != user]
        for row in groups:
            row[3] = ",".join(m for m in row[3].split(",") if m and m != user)
        write_table(root / "etc/group", groups)
        return 0
    if name == "systemctl":
        root, rest = root_of(args)
        verbs = [a for a in rest if not a.startswith("-")]
        wants = root / "etc/systemd/system/multi-user.target.wants"
        if verbs[0] == "is-enabled":
            return 0 if (wants / verbs[1]).is_symlink() else 1
        if verbs[0] == "enable":
            wants.mkdir(parents=True, exist_ok=True)
            (wants / verbs[1]).symlink_to(f"/etc/systemd/system/{verbs[1]}")
            return 0
        if verbs[0] == "disable":
            (wants / verbs[1]).unlink(missing_ok=True)
            return 0
        return 0
    if name == "python3":
        if args[:2] == ["-m", "venv"]:
            bin_dir = Path(args[-1]) / "bin"
            bin_dir.mkdir(parents=True)
            write_wrapper(bin_dir / "python", "python")
            script = bin_dir / "robo-companion"
            script.write_text(
                f"#!/bin/sh\ncd {os.environ['STUB_SRC']} && "
                f"exec {os.environ['STUB_PYTHON']} -m companion.cli \"$@\"\n"
            )
            script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            return 0
        if args[0] == "-c" and "numpy" in args[1]:
            version = os.environ.get("STUB_NUMPY", "")
            if not version:
                return 1
            print(version)
            return 0
        return 0
    if name == "python" and args[:3] == ["-m", "pip", "install"]:
        # What pip was handed (the installer removes its staging copy afterwards).
        target = Path(args[-1].split("[", 1)[0])
        log(["pip-target", *sorted(p.name for p in target.iterdir())])
        return 0
    # udevadm and anything else: recorded only.
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Sounds for the table, made with the stdlib ``wave`` module (no audio files to ship).

:func:`ensure_sounds` writes small 16-bit mono WAVs once into a cache folder; the app plays them
through Kivy's SoundLoader. Every card scan uses the same "card" sound, whatever the card.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050

#: name -> list of (frequency Hz, seconds); 0 Hz is a rest
TUNES: dict[str, list[tuple[float, float]]] = {
    "tap": [(880, 0.04)],
    "card": [(660, 0.08), (990, 0.12)],
    "reveal": [(523, 0.06)],
    "eureka": [(700.0 + 40 * i, 0.025) for i in range(24)] + [(1660, 0.2)],
    "correct": [(523, 0.12), (659, 0.12), (784, 0.12), (1047, 0.3)],
    "wrong": [(330, 0.2), (0, 0.05), (247, 0.4)],
    "refused": [(220, 0.18)],
    "dice": [(300.0 + 90 * (i % 5), 0.03) for i in range(12)],
}


def _samples(tune: list[tuple[float, float]]) -> bytes:
    out = bytearray()
    for freq, seconds in tune:
        n = int(RATE * seconds)
        fade = min(200, n // 4)
        for i in range(n):
            level = 0.0
            if freq > 0:
                level = math.sin(2 * math.pi * freq * i / RATE)
                # a short fade in and out: no clicks between notes
                level *= min(1.0, i / fade if fade else 1.0, (n - i) / fade if fade else 1.0)
            out += struct.pack("<h", int(level * 0.6 * 32767))
    return bytes(out)


def ensure_sounds(folder: Path) -> dict[str, Path]:
    """Write every tune as ``<name>.wav`` in ``folder`` (if missing); return name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name, tune in TUNES.items():
        path = folder / f"{name}.wav"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(_samples(tune))
            tmp.replace(path)
        paths[name] = path
    return paths

# Draws docs/img/architecture.png (run with the venv python: needs Pillow).
# ruff: noqa: E501  (a table of drawing data reads best one box per line)
from PIL import Image, ImageDraw, ImageFont

W, H = 1420, 700
img = Image.new("RGB", (W, H), "white")
d = ImageDraw.Draw(img)
try:
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 18)
    small = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 14)
    bold = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 20)
except OSError:
    font = small = bold = ImageFont.load_default()


def box(x, y, w, h, title, lines, fill):
    d.rounded_rectangle((x, y, x + w, y + h), 12, fill=fill, outline="#333", width=2)
    d.text((x + 12, y + 8), title, fill="#111", font=bold)
    for i, line in enumerate(lines):
        d.text((x + 12, y + 38 + i * 20), line, fill="#222", font=small)


def arrow(x1, y1, x2, y2, label="", dash=False):
    d.line((x1, y1, x2, y2), fill="#444", width=3)
    import math

    a = math.atan2(y2 - y1, x2 - x1)
    for s in (-0.4, 0.4):
        d.line((x2, y2, x2 - 14 * math.cos(a + s), y2 - 14 * math.sin(a + s)), fill="#444", width=3)
    if label:
        d.text(
            (min(x1, x2) + 20, min(y1, y2) - 22 if y1 == y2 else (y1 + y2) / 2 - 22),
            label,
            fill="#a33",
            font=small,
        )


box(
    40,
    40,
    300,
    150,
    "ui/ (Kivy, UI thread)",
    [
        "screens (.kv) + view models",
        "touch -> commands",
        "Clock.schedule_interval(poll)",
        "hold-to-reveal for secrets",
    ],
    "#e8f0fe",
)
box(
    450,
    40,
    320,
    190,
    "companion/service.py",
    [
        "TableService",
        "submit(command) -> Result",
        "poll(): drains the queues",
        "carries out effects on the board",
        "camera worker thread",
    ],
    "#fff4d6",
)
box(
    450,
    300,
    320,
    190,
    "companion/session.py (pure)",
    [
        "TableSession: check, submit, undo",
        "state = fold(setup, events)",
        "Eureka window, instructions",
        "interpret(observation) -> suggestions",
        "tables/ + rules/ engines",
    ],
    "#e6f4ea",
)
box(
    1080,
    300,
    300,
    120,
    "companion/journal.py",
    ["SQLite, WAL, synchronous=FULL", "append BEFORE acknowledge", "resume, history, export"],
    "#fde8e8",
)
box(
    1080,
    40,
    300,
    110,
    "hardware/ (siren board)",
    ["serial driver thread (pyserial)", "GPIO build, simulator, firmware"],
    "#f3e8fd",
)
box(
    1080,
    170,
    300,
    100,
    "vision/ (camera)",
    ["frame sources, recognition", "calibration, synthetic scenes"],
    "#f3e8fd",
)
box(
    40,
    300,
    300,
    150,
    "companion/ports.py",
    [
        "Camera, SirenBoard, Dice",
        "(typing.Protocol)",
        "observations, SirenPress",
        "fakes.py: small fakes",
    ],
    "#eeeeee",
)
box(
    40,
    520,
    300,
    120,
    "companion/wiring.py",
    ["builds adapters from config", "and environment; a missing one", "means: play by touch"],
    "#eeeeee",
)
box(
    450,
    540,
    320,
    110,
    "companion/records/ + replay",
    ["records <-> engines", "robo-companion replay", "golden records in tests/"],
    "#e6f4ea",
)
arrow(340, 110, 450, 110, "commands / poll")
arrow(610, 230, 610, 300, "submit")
arrow(770, 400, 1080, 370, "recorder(command)")
arrow(1080, 95, 770, 95, "queue: SirenPress")
arrow(1080, 220, 770, 180, "queue: observations")
arrow(770, 140, 1080, 120, "effects: window, lights")
arrow(610, 490, 610, 540, "to_record")
d.text(
    (40, 670),
    "Threads never touch the session: adapters put events on queues, the UI thread drains them on its clock.",
    fill="#333",
    font=font,
)
img.save("docs/img/architecture.png")

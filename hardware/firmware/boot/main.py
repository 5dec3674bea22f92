# Copied to the Pico's root as main.py by `robo-companion siren flash`; MicroPython runs it at boot.
import siren.app  # type: ignore[import-not-found]

siren.app.run()

"""The siren board's MicroPython firmware (copied to the Pico as the package ``siren``).

Every module here except ``app`` and ``usb_serial`` is plain logic that also runs under CPython:
the simulator (``hardware.simulator``) runs it on a pseudo-terminal with a fake ``machine``.
"""

"""The screens: one ``.kv`` file and one small class each (see :mod:`ui.app`)."""

"""robo-companion: the core of a table companion for Robo Factory and Robot Master.

The core (rules engines, game records, the table session, the journal, configuration and the
command line) imports only the standard library. Hardware, vision and the UI are adapters that
depend on it, never the other way round.
"""

__version__ = "0.1.0"

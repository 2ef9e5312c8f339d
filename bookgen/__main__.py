"""``python -m bookgen`` and the ``bookgen`` command: Ctrl-C is handled from the first moment.

Importing the command line (typer; then each command imports reportlab, the
solvers) takes a noticeable fraction of a second; a Ctrl-C or SIGTERM in that
time must end the program with one sentence, not a traceback. So this module
imports almost nothing before it takes the signals over.
"""

from __future__ import annotations

import os
import signal

STARTING = b"error: interrupted while starting; nothing was written\n"


def main() -> None:
    """Run the command line, with signals before a command takes them over reported plainly.

    Until a command installs its own handlers (``cli._interruptible``), a
    Ctrl-C or SIGTERM (during the imports, or while the command line is
    parsed) ends the program at once with one sentence: nothing has been
    started that needs cleaning up. The interpreter's own start-up, before
    this module runs, is out of reach.
    """
    def early(signum, frame):
        os.write(2, STARTING)
        os._exit(128 + signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, early)
    from bookgen.cli import main as run

    run()


if __name__ == "__main__":
    main()

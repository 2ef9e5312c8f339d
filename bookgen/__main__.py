"""``python -m bookgen`` and the ``bookgen`` command: Ctrl-C is handled from the first moment.

Importing the command line (typer, reportlab, the solvers) takes a noticeable
fraction of a second; a Ctrl-C or SIGTERM in that time must end the program
with one sentence, not a traceback. So this module imports almost nothing
before it takes the signals over.
"""

from __future__ import annotations

import signal
import sys


def main() -> None:
    """Run the command line, with signals during start-up reported plainly."""
    caught: list[int] = []

    def early(signum, frame):
        caught.append(signum)
        raise KeyboardInterrupt

    old = {sig: signal.signal(sig, early) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        from bookgen.cli import main as run
    except KeyboardInterrupt:
        for sig in old:
            signal.signal(sig, signal.SIG_IGN)
        sys.stderr.write("error: interrupted while starting; nothing was written\n")
        sys.exit(128 + (caught[0] if caught else signal.SIGINT))
    for sig, handler in old.items():
        signal.signal(sig, handler)
    run()


if __name__ == "__main__":
    main()

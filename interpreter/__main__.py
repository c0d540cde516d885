"""`python -m interpreter` runs the `interpret` command."""
import sys

from .play.cli import main

sys.exit(main())

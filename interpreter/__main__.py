"""`python -m interpreter` runs the `interpret` command."""
import sys

from .cli import main

sys.exit(main())

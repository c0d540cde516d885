"""What compiled rules call while a game runs: the run-time context and its primitives
(`context.py`), random draws and forced outcomes (`draws.py`), the built-in attributes and
functions (`library.py`), walks over the board (`walks.py`), and the helpers of generated code
(`ops.py`, `helpers.py`). Imports core only."""

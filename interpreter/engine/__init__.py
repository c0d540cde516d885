"""The forward model: `Game` (`game.py`) and its parts, the legality binder (`legality.py`,
`listing.py`), the turn flow (`flow.py`, `simultaneous.py`), explicit chance nodes (`chance.py`),
results (`results.py`) and the guard that turns a Python error met by the rules into a rule error
(`guard.py`)."""

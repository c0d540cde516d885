"""Values everyone shares: cards, zones, seats and actions (`model.py`), the plain state and its
clone (`state.py`), the seeded generator (`rng.py`). Imports nothing of interpret but errors."""

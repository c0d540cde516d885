"""Designers' tools over the forward model: scenario files (`runner.py`), positions built for
them (`position.py`), and rule coverage and mutation (`coverage.py`)."""

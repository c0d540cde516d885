"""The frozen definition of a game for a player count and options, built from the content (`build.py`) in parts: world, symbols, linker, compiled rules."""

"""The frozen definition of a match, in parts: world, symbols, linker, compiled rules."""

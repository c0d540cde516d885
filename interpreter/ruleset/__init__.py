"""Content files to a checked rule set: YAML with positions (`yamlio.py`), the JSON Schemas
(`schema.py`), the game folder and its sections (`loader.py`), variants and homebrew overlays
(`variants.py`), where the bundled files are (`paths.py`) and the disk cache (`cache.py`)."""

"""The rules language: the lark grammar (grammar/rules.lark) parsed into typed trees with
positions (`parser.py`, `ast.py`), their analysis (`analysis.py`, `kinds.py`, `known.py`), and
Python source generated from them and compiled once (`compiler.py`, `codegen.py`,
`statements.py`, `loops.py`, `repeated.py`, `shortcuts.py`, `continuations.py`, `templates.py`)."""

"""The rules language: the lark grammar (grammar/rules.lark) parsed into typed trees with
positions (`parser.py`, `ast.py`), their analysis, declared once per kind of node (`analysis.py`;
`kindfacts.py`, `kinds.py`), and Python source generated from them and compiled once (`compiler.py`
holding `codegen.py` and its parts `known.py`, `repeated.py`, `loops.py`, `calls.py`,
`shortcuts.py`, `statements.py`; `resumable.py`, `templates.py`). `symbols.py` says what the
compiler reads of the definition, `output.py` what it produces, `sources.py` how `--source`
shows it."""

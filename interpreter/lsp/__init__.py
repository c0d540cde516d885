"""`interpret lsp`: a language server for a game's folder (content files, variants, scenarios,
tutorials), on pygls. Diagnostics are `interpret validate`'s own checks run on the editor's
unsaved texts; completion, hover, navigation and rename read the same ruleset and schemas.
docs/lsp.md says what it offers and how to start it in an editor."""

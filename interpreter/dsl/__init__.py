"""The rules language: grammar loading, parsing with positions, compilation to closures."""

"""What the compiler produces besides the callables it returns, owned by the Compiler and read by
the definition (which keeps the same names readable on the match: `uses_chance`, `conts`,
`prompts`, `generated`)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class CompileOutput:
    """- `uses_chance`: some rule rolls, draws at random or shuffles;
    - `conts`: the continuations of statements that may wait for a choice, by id (saved in a
      state's pending choices, so an id is only valid for the same content compiled in the same
      order);
    - `prompts`: continuation id of a `choose` -> its prompt's template (written again for each
      viewer);
    - `closures`: the statements that may wait for a choice (sources.Closure), compiled to
      closures rather than generated code, for `--source`;
    - `generated`: every generated module (sources.Generated: where its text starts, its last line,
      its source and globals), for `--source`."""

    uses_chance: bool = False
    conts: list = field(default_factory=list)
    prompts: dict = field(default_factory=dict)
    generated: list = field(default_factory=list)
    closures: list = field(default_factory=list)

    def register(self, fn) -> int:
        """The id of a new continuation `fn`."""
        self.conts.append(fn)
        return len(self.conts) - 1

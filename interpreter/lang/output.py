"""What the compiler produces besides the callables it returns, owned by the Compiler and read by
the definition (which keeps the same names readable on the match: `uses_chance`, `conts`,
`prompts`, `generated`)."""
from __future__ import annotations


class CompileOutput:
    """- `uses_chance`: some rule rolls, draws at random or shuffles;
    - `conts`: the points where a body that may wait for a choice resumes, by id (saved in a
      state's pending choices and call stack, so an id is only valid for the same content compiled
      in the same order): its generated function with the point (resumable.py), or what follows a
      body;
    - `prompts`: continuation id of a `choose` -> its prompt's template (written again for each
      viewer);
    - `generated`: every generated module (sources.Generated: where its text starts, its last line,
      its source and globals), for `--source`;
    - `bodies`: (statements, scope) of every body compiled (an action's effect, a procedure, a
      trigger...): where cards may go and what a player may be asked (definition/reach.py)."""

    def __init__(self):
        self.uses_chance = False
        self.conts: list = []
        self.prompts: dict = {}
        self.generated: list = []
        self.bodies: list = []

    def register(self, fn) -> int:
        """The id of a new continuation `fn` (None: set once its function is compiled)."""
        self.conts.append(fn)
        return len(self.conts) - 1

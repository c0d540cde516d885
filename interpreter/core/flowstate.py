"""The flow's part of a state, `st["flow"]`, typed: a dict of plain values (JSON), read and
written through the names below so that the flow's code never spells them.

    phase    Phase: setup, play (the rounds), over
    round    the round's number (1 for the first)
    order    the seat ids of the round, in turn order; pos: the index of the turn's seat in it
    step     the index of the turn's step (-1 while the turn starts)
    finish   Finish or None: the step, turn, round or game that the rules finished
    resume   Resume or None: a flow effect waited for a choice; where the flow goes on once made
    sim      a simultaneous step's record (simultaneous.py); win, wseen, acts: windows (flow.py)
    node     a chance node (explicit chance: engine/chance.py); chance: "explicit" or absent

The values stored are the enums' plain texts (a state holds plain values: saved states and logs
are the same as ever); the accessors turn them into members.
"""
from __future__ import annotations

from enum import Enum


class Phase(str, Enum):
    SETUP = "setup"
    PLAY = "play"
    OVER = "over"


class Finish(str, Enum):
    """What the rules finished (`finish step|turn|round|game`), in rank order."""
    STEP = "step"
    TURN = "turn"
    ROUND = "round"
    GAME = "game"


class Resume(str, Enum):
    """Where the flow goes on after a choice that a flow effect waited for."""
    ORDER = "order"  # the round started: its order of seats, then its first turn
    FIRST_STEP = "first_step"  # the turn started: its first step
    TURN_ENDED_NEXT = "turn_ended:next"  # the turn ended: the next turn
    TURN_ENDED_ROUND = "turn_ended:round"  # the turn ended: the round ends
    ROUND_ENDED = "round_ended"  # the round ended: the next round, or another pass
    SIM_REVEAL = "sim_reveal"  # a simultaneous step's reveal goes on (simultaneous.py)

    @staticmethod
    def turn_ended(then: str) -> "Resume":
        """After a turn that ended, to go on with the next turn (`next`) or the round's end (`round`)."""
        return Resume.TURN_ENDED_ROUND if then == "round" else Resume.TURN_ENDED_NEXT

    @property
    def then(self) -> str:
        """For a turn that ended: `next` or `round`."""
        return self.value.split(":")[1]


def phase(flow: dict) -> Phase:
    return Phase(flow["phase"])


def finish(flow: dict) -> Finish | None:
    f = flow.get("finish")
    return Finish(f) if f is not None else None


def wait(flow: dict, resume: Resume) -> None:
    """A flow effect waits for a choice: the flow goes on at `resume` once it is made."""
    flow["resume"] = resume.value


def take_resume(flow: dict) -> Resume | None:
    """Where the flow goes on after the choice a flow effect waited for (forgotten: it is
    taken), or None when nothing waited."""
    r = flow.get("resume")
    if not r:
        return None
    flow["resume"] = None
    return Resume(r)


__all__ = ["Phase", "Finish", "Resume", "phase", "finish", "wait", "take_resume"]

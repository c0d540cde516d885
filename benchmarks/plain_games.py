"""Tic-tac-toe and connect four as a Python programmer would write them by hand.

The reference of benchmarks/compare.py: a plain class per game, with the usual forward-model
methods (``legal_actions``, ``apply``, ``is_terminal``, ``returns``), written plainly and not
tuned to the bone. They play exactly the rules of content/tic-tac-toe and content/connect-four,
and tests/test_benchmarks.py checks that they agree with the content on many random games.

Actions are numbers: a cell 0..8 (row by row from the top left) in tic-tac-toe, a column 0..6
in connect four. Players are 0 (who starts) and 1.
"""
from __future__ import annotations

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))   # →  ↓  ↘  ↙


class TicTacToe:
    rows = columns = 3
    line = 3

    def __init__(self):
        self.board = [[None] * self.columns for _ in range(self.rows)]
        self.player = 0
        self.winner = None
        self.moves = 0

    def clone(self):
        other = type(self).__new__(type(self))
        other.board = [row[:] for row in self.board]
        other.player, other.winner, other.moves = self.player, self.winner, self.moves
        return other

    def current_player(self):
        return None if self.is_terminal() else self.player

    def legal_actions(self):
        if self.is_terminal():
            return []
        return [r * self.columns + c for r in range(self.rows) for c in range(self.columns)
                if self.board[r][c] is None]

    def apply(self, action):
        r, c = divmod(action, self.columns)
        if self.is_terminal() or self.board[r][c] is not None:
            raise ValueError(f"illegal move {action}")
        self._place(r, c)

    def _place(self, r, c):
        self.board[r][c] = self.player
        self.moves += 1
        if self._has_line(self.player, r, c):
            self.winner = self.player
        self.player = 1 - self.player

    def _has_line(self, p, r, c):
        """A line of `self.line` marks of p through (r, c)."""
        for dr, dc in DIRECTIONS:
            n = 1
            for sign in (1, -1):
                rr, cc = r + sign * dr, c + sign * dc
                while 0 <= rr < self.rows and 0 <= cc < self.columns and self.board[rr][cc] == p:
                    n += 1
                    rr, cc = rr + sign * dr, cc + sign * dc
            if n >= self.line:
                return True
        return False

    def is_terminal(self):
        return self.winner is not None or self.moves == self.rows * self.columns

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]


class ConnectFour(TicTacToe):
    rows, columns = 6, 7
    line = 4

    def legal_actions(self):
        if self.is_terminal():
            return []
        return [c for c in range(self.columns) if self.board[0][c] is None]

    def apply(self, action):
        if self.is_terminal() or self.board[0][action] is not None:
            raise ValueError(f"illegal move {action}")
        r = self.rows - 1
        while self.board[r][action] is not None:   # the disc falls to the lowest empty cell
            r -= 1
        self._place(r, action)

"""Every error reversi-ref raises on bad input, named by kind (see STYLE.md 6)."""

from __future__ import annotations

from typing import Optional


class ReversiError(Exception):
    """Base class of all reversi-ref errors."""


class MapError(ReversiError, ValueError):
    """A map text that the official server would reject (RULES.md 1).

    `problem` is a stable id of the server's diagnosis (see `mapfile.PROBLEMS`), for scripts.
    """

    def __init__(self, reason: str, line: int = 0, column: int = 0,
                 source: Optional[str] = None, problem: str = "") -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.source = source
        self.problem = problem
        super().__init__(str(self))

    def __str__(self) -> str:
        where = "%s:" % self.source if self.source else ""
        if self.line:
            where += "%d:%d:" % (self.line, self.column)
        return ("%s %s" % (where, self.reason)).strip()

    def with_source(self, source: str) -> "MapError":
        """Return the same error naming the file it came from."""
        return MapError(self.reason, self.line, self.column, source, self.problem)


class IllegalMoveError(ReversiError, ValueError):
    """A move that the rules do not allow in this position; `rule` names the rule broken."""

    def __init__(self, rule: str, detail: str = "") -> None:
        self.rule = rule
        self.detail = detail
        super().__init__("%s: %s" % (rule, detail) if detail else rule)


class InvalidMoveError(ReversiError, ValueError):
    """A text that does not spell a move (`Move.parse`); `text` is the text, `reason` what is
    wrong with it.  Whether a move is legal is another question (`IllegalMoveError`)."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__("invalid move %r: %s" % (text, reason))


class ProtocolError(ReversiError, ValueError):
    """Bytes that are not a valid message of the network protocol (RULES.md 8)."""


class TraceError(ReversiError, ValueError):
    """A game record that cannot be read or does not replay under the rules."""

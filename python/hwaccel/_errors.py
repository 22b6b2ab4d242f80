"""hwaccel's exceptions: one per outcome of the CLI that is not a success.

Each carries ``exit_code``, the code ``hwaccel`` would exit with for the same
failure, and the CLI's message (a snapshot's error names file:line:col).
"""

from __future__ import annotations


class Error(Exception):
    """Base of every hwaccel failure."""

    exit_code: int = 1

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(Error, ValueError):
    """A malformed request, an unknown backend, model or format (exit 2)."""

    exit_code = 2


class BadInput(Error):
    """A snapshot or model file is unreadable or breaks its format (exit 4).

    The message starts with the file and the place: ``FILE:LINE:COL: ...``.
    """

    exit_code = 4


class CannotWrite(Error, OSError):
    """record() could not write its file (exit 5)."""

    exit_code = 5


class BadReserve(Error, ValueError):
    """The reserve (argument or HWACCEL_RESERVE_BYTES) is not a size (exit 6)."""

    exit_code = 6


class Unsatisfiable(Error):
    """No device satisfies the request (exit 9); the message names what is available."""

    exit_code = 9


class NotCompiled(Unsatisfiable):
    """The request names a backend left out of this build (exit 7)."""

    exit_code = 7


class NotReady(Unsatisfiable):
    """The request names a device or backend that is not ready (exit 8); the message says why."""

    exit_code = 8


_BY_CODE = {c.exit_code: c for c in (UsageError, BadInput, CannotWrite, BadReserve, NotCompiled,
                                     NotReady, Unsatisfiable)}


def from_failure(failure: BaseException) -> Error:
    """The exception for a _hwaccel._Failure(exit_code, message)."""
    code, message = failure.args
    return _BY_CODE.get(code, Error)(message, code)

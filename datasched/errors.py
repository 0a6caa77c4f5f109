"""Exceptions shared by every datasched module."""


class UserError(Exception):
    """Bad user input (file, parameter, option). The CLI prints it without a traceback
    and exits with status 2; the message must name the offending file/line, job id or
    parameter."""


class Interrupted(UserError):
    """The user (or a batch system) stopped the run with a signal: both processes were
    stopped. The CLI exits with 128 + the signal number, as a shell does."""

    def __init__(self, signum: int, message: str):
        super().__init__(message)
        self.exit_status = 128 + signum

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


def yaml_error(path: object, exc: Exception, what: str = "YAML") -> UserError:
    """One line ``path:line:column: not valid YAML: problem`` for a PyYAML error."""
    mark = getattr(exc, "problem_mark", None)
    where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else f"{path}"
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    return UserError(f"{where}: not valid {what}: {problem}" + (f" ({context})" if context else ""))

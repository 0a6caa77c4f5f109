"""Exceptions shared by every datasched module."""

from typing import Any

#: the first words of every one-line error datasched prints; the runner reads a child
#: process's refusal by them (datasched.policy.inprocess)
ERROR_PREFIX = "datasched: error: "
#: the exit status of a refused input (a UserError): the CLI's, and an in-process child's
#: refusal of its policy or options before the engine begins
USER_ERROR_STATUS = 2


class UserError(Exception):
    """Bad user input (file, parameter, option). The CLI prints it without a traceback
    and exits with status 2; the message must name the offending file/line, job id or
    parameter.

    The message is always one line: messages quote what the user wrote (a YAML key, a
    job id, a value), which may hold a newline or another control character, so those
    are written as escapes (``\\n``) here, once for every error (found by fuzzing: a
    mutated workflow key split the error over several lines)."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(one_line(str(message)), *args)


def one_line(text: str) -> str:
    """``text`` with line breaks and other non-printable characters escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\t" else repr(c)[1:-1] for c in text)


class ProcessFailure(UserError):
    """The engine or the decision process failed. The first line is ours (which process,
    its exit status); the lines after it are that process's own words (a Python traceback,
    the engine's message) and the command, kept as they are so that a pybatsim traceback reads
    like one. The CLI prints it without a traceback of ours and exits with status 2."""

    def __init__(self, message: object = "") -> None:
        Exception.__init__(self, str(message))


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


def parse_json(text: str | bytes, source: object, **options: Any) -> Any:
    """``json.loads`` whose only new failure is one UserError naming ``source`` when the
    text nests lists or objects deeper than Python's parser recurses (found by hostile
    inputs: 100,000 nested brackets ended in a ``RecursionError`` traceback)."""
    import json

    try:
        return json.loads(text, **options)
    except RecursionError:
        raise UserError(f"{source}: lists or objects nested too deeply to read") from None


def parse_yaml(text: str, source: object) -> Any:
    """``yaml.safe_load`` with the same refusal as :func:`parse_json` for deep nesting
    (``yaml.YAMLError`` still propagates: each caller words it with the line)."""
    import yaml

    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise UserError(f"{source}: lists or mappings nested too deeply to read") from None


def refuse_special_file(path: object) -> None:
    """Refuse an input that is a device, pipe or socket in one UserError: reading ``/dev/zero``
    never ends (and fills the memory), and a pipe blocks until a writer comes, so such an input
    would hang instead of failing. A missing file or a folder is left to the caller's ``OSError``
    wording; ``stat`` itself never blocks."""
    import os
    import stat

    try:
        mode = os.stat(str(path)).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise UserError(f"{path}: not a regular file (a device, pipe or socket, whose reading may never end)")


def read_utf8(path: object) -> str:
    """The text of a UTF-8 input file. ``OSError`` propagates (each caller words it);
    bytes that are not UTF-8 raise one UserError ``path:line:column: not UTF-8 text``
    instead of a ``UnicodeDecodeError`` traceback; a device or pipe is refused
    (:func:`refuse_special_file`)."""
    from pathlib import Path

    refuse_special_file(path)
    data = Path(str(path)).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UserError(
            f"{path}:{line}:{column}: not UTF-8 text (byte 0x{data[exc.start]:02x}): save the file as UTF-8"
        ) from None

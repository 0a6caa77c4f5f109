"""Exceptions shared by every datasched module."""


class UserError(Exception):
    """Bad user input (file, parameter, option). The CLI prints it without a traceback
    and exits with status 2; the message must name the offending file/line, job id or
    parameter."""

"""A module."""


def func(value):
    """Double it."""
    return value * 2

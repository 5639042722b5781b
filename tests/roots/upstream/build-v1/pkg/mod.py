import functools


def alpha(x):
    """First."""
    return x + 1


@functools.lru_cache
def beta(y):
    if y > 1:
        return "big"
    elif y == 1:
        return "one"
    else:
        return "small"


class Gamma:
    def delta(self):
        return 4

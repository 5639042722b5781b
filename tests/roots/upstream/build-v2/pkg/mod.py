import functools

# a comment pushing everything down
# another one
# and a third


def alpha(x):
    """First."""
    return x + 1


@functools.lru_cache
def beta(y):
    if y > 1:
        return "big"
    elif y == 2:
        return "two"
    else:
        return "small"


class Gamma:
    def delta(self):
        return 4

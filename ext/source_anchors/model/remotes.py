"""A git remote's address as readers may see it: no credentials, its web page, its known host (pure).

Apart from :mod:`.hosts` (the permalink templates) and :mod:`source_anchors.sources.apigit` (git
itself), which both export these, so that the warm check (:mod:`source_anchors.cli.warm`) reads the
``origin`` remote without loading either.
"""

from __future__ import annotations

__all__ = ["KNOWN_HOSTNAMES", "web_url", "without_credentials"]

#: Hostnames recognised without a ``host`` key.
KNOWN_HOSTNAMES = {"github.com": "github", "gitlab.com": "gitlab", "bitbucket.org": "bitbucket"}


def without_credentials(url: str) -> str:
    """*url* without the user and password before its host: ``https://user:token@host/p`` gives ``https://host/p``.

    Any scheme, and the scp form (``git@host:owner/repo`` gives ``host:owner/repo``); a local path
    is returned as it is.
    """
    url = url.strip()
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    end = min(
        (i for i in map(rest.find, "/?#") if i >= 0), default=len(rest)
    )  # where the host part ends
    at = rest.rfind("@", 0, end)
    if at < 0 or (not sep and ":" not in rest[at + 1 : end]):  # no user, or an '@' in a local path
        return url
    return f"{scheme}{sep}{rest[at + 1 :]}"


#: The scp form of a remote, ``[user@]host:path``.
_SCP = r"^(?:[\w.-]+@)?(?P<host>[\w.-]+):(?!//)(?P<path>[^\\]+)$"


def web_url(remote: str) -> str | None:
    """The web address of a git remote: ``git@github.com:o/r.git`` and ``ssh://…`` give ``https://github.com/o/r``.

    ``https`` remotes lose their user and password; ``file`` remotes and local paths have none (None).
    """
    remote = without_credentials(remote)
    if remote.startswith(("https://", "http://", "ssh://", "git://", "git+ssh://")):
        scheme, _, rest = remote.partition("://")
        hostpart, _, path = rest.partition("/")
        host = hostpart.rpartition("@")[2]
        if scheme not in ("https", "http"):
            host = host.split(":", 1)[0]  # an ssh port is no web port
        web = "http" if scheme == "http" else "https"
        path = path.strip("/").removesuffix(".git")
        return f"{web}://{host}/{path}" if host and path else None
    import re  # the warm check reads an https remote without it

    match = re.match(_SCP, remote)
    if match and "/" not in match["host"]:
        return f"https://{match['host']}/{match['path'].strip('/').removesuffix('.git')}"
    return None

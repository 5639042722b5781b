"""Problem reports: a prefilled new-issue link in the book's own repository (pure, no Sphinx).

The book's repository is one setting (``source_anchors_feedback_repo``). A reader who follows a
report link lands on the host's new-issue form with the title and the body filled in: the page,
the anchor, the pin and a place for what the reader saw. GitHub and GitLab take the title and
body as query parameters of their new-issue pages; other hosts are refused when the configuration
is read, so a link never leads nowhere.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from .hosts import KNOWN_HOSTNAMES, without_credentials

__all__ = ["feedback_repo_problem", "issue_url"]

#: The new-issue page and its title and body parameters, by host.
_FORMS = {
    "github": ("{base}/issues/new", "title", "body"),
    "gitlab": ("{base}/-/issues/new", "issue[title]", "issue[description]"),
}


def _host(url: str) -> str | None:
    return KNOWN_HOSTNAMES.get((urlsplit(url).hostname or "").lower())


def feedback_repo_problem(value: object) -> str | None:
    """Why *value* cannot be the book's repository, or ``None`` (``""`` means no channel)."""
    if not isinstance(value, str):
        return f"expected the https URL of the book's repository, got {value!r}"
    if not value:
        return None
    value = without_credentials(value)  # the message shows it: a token must not
    parts = urlsplit(value)
    if parts.scheme != "https" or len([p for p in parts.path.split("/") if p]) < 2:
        return f"expected the https URL of the book's repository such as 'https://github.com/OWNER/NAME', got {value!r}"
    if _host(value) not in _FORMS:
        return (
            f"{parts.hostname!r} is not a host whose new-issue form can be prefilled; use a repository on "
            f"{' or '.join(sorted(h for h in KNOWN_HOSTNAMES if KNOWN_HOSTNAMES[h] in _FORMS))}"
        )
    return None


def issue_url(repo: str, title: str, body: str) -> str:
    """The new-issue page of *repo* with *title* and *body* filled in (*repo* passed the check above)."""
    page, title_key, body_key = _FORMS[_host(repo) or "github"]
    base = without_credentials(repo).rstrip("/").removesuffix(".git")
    return page.format(base=base) + "?" + urlencode({title_key: title, body_key: body})

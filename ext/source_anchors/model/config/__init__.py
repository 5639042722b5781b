"""Configuration: the ``conf.py`` options, the repository pins and the API-link settings (no Sphinx).

Takes in: the raw ``source_anchors_*`` values of ``conf.py`` (or the CLI's overrides of them).
Gives out: :class:`~.options.Options` (the declared options, their checks and help),
:func:`~.settings.settings_from` -> :class:`~.settings.Settings` (or one ``ConfigError`` listing
every problem), :class:`~.pins.RepoPin`, :class:`~.api.ApiSettings`, the pin field grammar
(:mod:`.pinfields`) and the value checks (:mod:`.values`).
May import: the rest of ``model`` and the standard library (platformdirs for the default cache).
"""

from .api import SELF, ApiSettings
from .options import Options, option_default, option_names
from .pinfields import SHA_RE
from .pins import RepoPin
from .settings import Settings, default_cache_dir, settings_from
from .values import PREFIX

__all__ = [
    "PREFIX",
    "SELF",
    "SHA_RE",
    "ApiSettings",
    "Options",
    "RepoPin",
    "Settings",
    "default_cache_dir",
    "option_default",
    "option_names",
    "settings_from",
]

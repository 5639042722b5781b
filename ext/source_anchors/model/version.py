"""The package's version (one place: ``source_anchors.__version__`` and the build read it from here)."""

__version__ = "0.1.0"

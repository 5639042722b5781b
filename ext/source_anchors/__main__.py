"""``python -m source_anchors``: check or update the lock from the book root."""

import sys

from .cli.main import main

raise SystemExit(main(sys.argv[1:]))

"""The demo package."""

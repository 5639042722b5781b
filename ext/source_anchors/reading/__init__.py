"""The reading stage."""

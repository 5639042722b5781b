"""The engine stage."""

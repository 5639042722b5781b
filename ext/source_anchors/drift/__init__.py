"""The drift stage."""

"""The resolve stage."""

"""The sources stage."""

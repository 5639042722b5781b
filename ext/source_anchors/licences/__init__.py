"""The licences stage."""

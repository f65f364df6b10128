"""Accuracy and speed harness; each script prints the figures the README quotes."""

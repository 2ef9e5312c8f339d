"""Exact solution counting (SAT) and human-technique ladders."""

"""Pure-Python vocabulary shared by solvers, variants and layout (no I/O, no reportlab)."""

"""PDF layout with reportlab: the only package that imports it."""

"""Puzzle variants and the registry that finds them by name or alias."""

from bookgen.variants.registry import VARIANTS, get_variant, variant_names

__all__ = ["VARIANTS", "get_variant", "variant_names"]

"""The bookgen studio: a small Starlette app (routes, the page, its script and style).

Routes only: checking, planning, building and drawing happen in
``bookgen.designer``, ``bookgen.jobs`` and ``bookgen.export``.
"""

"""The shared book-JSON checkers of edge signs and cages (``variants.gridparts``), as the
variants that read them use them."""

from __future__ import annotations

import pytest

from bookgen.core.types import Cage, Edge
from bookgen.variants.gridparts import cages_from_json, edges_from_json


def test_edges_read_and_each_fault_named():
    got = edges_from_json([{"cells": [[0, 0], [0, 1]], "sign": "<"}], 4, ("<", ">"))
    assert got == (Edge((0, 0), (0, 1), "<"),)
    for raw, msg in (
        ([{"cells": [[0, 0], [0, 1]], "sign": "="}], "edge 1: sign must be '<' or '>', got '='"),
        ([{"cells": [[0, 0], [1, 1]], "sign": "<"}], "edge 1: cells [(0, 0), (1, 1)] are not neighbours"),
        ([{"cells": [[0, 0]], "sign": "<"}], "edge 1 must be {'cells': [[r, c], [r, c]], 'sign': '<' or '>'}"),
        ([{"cells": [[0, 0], [0, 1]], "sign": "<"}, {"cells": [[0, 1], [0, 0]], "sign": ">"}],
         "edge 2 joins the same cells as edge 1"),
        ([{}] * 25, "25 edges, but a 4x4 grid has only 24 places for one"),
    ):
        with pytest.raises(ValueError) as err:
            edges_from_json(raw, 4, ("<", ">"))
        assert str(err.value).startswith(msg)


def test_cages_read_with_the_variants_own_op_and_target_rules():
    plus = lambda op: None if op == "+" else f"op is '+', not {op!r}"  # noqa: E731
    small = lambda t: None if type(t) is int and t > 0 else f"bad target {t!r}"  # noqa: E731
    got = cages_from_json([{"cells": [[1, 0], [0, 0]], "target": 3}], 3, "Killer", plus, small, default_op="+")
    assert got == (Cage(((0, 0), (1, 0)), "+", 3),)
    for raw, msg in (
        ([], "Killer 'cages' must be a non-empty list"),
        ([{"cells": [[0, 0]], "target": 3, "x": 1}], "cage 1 must be an object with cells, op and target"),
        ([{"cells": [[0, 3]], "target": 3}], "cage 1: bad cell [0, 3] (want [row, col] within 0..2)"),
        ([{"cells": [[0, 0]], "op": "*", "target": 3}], "cage 1: op is '+', not '*'"),
        ([{"cells": [[0, 0]], "target": 0}], "cage 1: bad target 0"),
        ([{"cells": [[0, 0], [0, 0]], "target": 3}], "cage 1 lists a cell twice"),
    ):
        with pytest.raises(ValueError) as err:
            cages_from_json(raw, 3, "Killer", plus, small, default_op="+")
        assert str(err.value) == msg
    with pytest.raises(ValueError, match="cage 1: op is"):  # no default: a missing op is judged as None
        cages_from_json([{"cells": [[0, 0]], "target": 3}], 3, "KenKen", plus, small)

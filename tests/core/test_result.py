import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver.core.result import SearchStats, SolveResult

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=10,
)


@given(
    status=st.sampled_from(["optimal", "impossible", "unsolvable", "best-found",
                            "no-solution-found"]),
    solution=json_values,
    score=st.none() | st.integers(),
    nodes=st.integers(min_value=0, max_value=2**62),
    elapsed=st.floats(min_value=0, max_value=1e6),
    details=st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=3),
)
def test_json_round_trip(status, solution, score, nodes, elapsed, details):
    result = SolveResult("bunny", "board.txt#2", status, solution=solution, score=score,
                         score_name="tokens", proof="no program of 3 tokens", verified=True,
                         stats=SearchStats(nodes=nodes, elapsed_s=elapsed, peak_memory_mb=12.5),
                         details=details)
    again = SolveResult.from_json(result.to_json())
    assert again == result
    assert json.loads(result.to_json())["proved"] == (status in ("optimal", "impossible",
                                                                 "unsolvable"))


def test_unknown_status_is_refused():
    with pytest.raises(ValueError, match="unknown status"):
        SolveResult("pegs", "x", "solved")


def test_text_output_mentions_status_score_proof_and_unverified():
    result = SolveResult("bunny", "b.txt", "best-found", solution="F L", score=2,
                         score_name="tokens", proof="exhausted up to 1 token",
                         stats=SearchStats(nodes=2_000_000, elapsed_s=1.0))
    text = result.to_text()
    assert text.splitlines()[0] == "b.txt: best-found, tokens 2"
    assert "solution: F L" in text and "proof: exhausted up to 1 token" in text
    assert "2.00M nodes/s" in text and "NOT VERIFIED" in text

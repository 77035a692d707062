import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver.core.errors import InputError
from gridsolver.core.result import PROVED_STATUSES, SCHEMA_VERSION, STATUSES, STOP_REASONS, Result, Stats

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=10,
)


@given(
    status=st.sampled_from(STATUSES),
    stopped=st.none() | st.sampled_from(STOP_REASONS),
    solution=json_values,
    score=st.none() | st.integers(),
    nodes=st.integers(min_value=0, max_value=2**62),
    elapsed=st.floats(min_value=0, max_value=1e6),
    details=st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda k: k != "display"), json_values,
                            max_size=3),
    options=st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=2),
)
def test_json_round_trip(status, stopped, solution, score, nodes, elapsed, details, options):
    result = Result("bunny", "board.txt#2", status, solution=solution, score=score, score_name="tokens",
                    proof="no program of 3 tokens", stopped=stopped,
                    stats=Stats(nodes=nodes, elapsed_s=elapsed, peak_memory_mb=12.5), details=details,
                    board="S#", options=options)
    again = Result.from_json(result.to_json())
    assert again == result
    data = json.loads(result.to_json())
    assert data["schema"] == SCHEMA_VERSION
    assert data["proved"] == (status in PROVED_STATUSES)


def test_verified_is_not_a_constructor_argument_and_is_not_read_back():
    with pytest.raises(TypeError):
        Result("bunny", "x", "optimal", verified=True)  # type: ignore[call-arg]
    result = Result("bunny", "x", "optimal", solution="F", score=1)
    result.verified = True
    assert json.loads(result.to_json())["verified"] is True
    assert Result.from_json(result.to_json()).verified is False


def test_unknown_status_and_stop_reason_are_refused():
    with pytest.raises(ValueError, match="unknown status"):
        Result("pegs", "x", "solved")
    with pytest.raises(ValueError, match="unknown stop reason"):
        Result("pegs", "x", "best-found", stopped="bored")


@pytest.mark.parametrize("text, words", [
    ("not json", "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"schema": 99, "game": "bunny"}', "schema 99"),
    ('{"schema": 1, "game": "bunny"}', "missing key 'input'"),
    ('{"schema": 1, "game": "bunny", "input": "x", "status": "won"}', "unknown status"),
])
def test_bad_result_json_is_an_input_error(text, words):
    with pytest.raises(InputError, match=words):
        Result.from_json(text)


def test_text_output_mentions_status_score_proof_stop_and_unverified():
    result = Result("bunny", "b.txt", "best-found", solution="F L", score=2, score_name="tokens",
                    proof="exhausted up to 1 token", stopped="time",
                    stats=Stats(nodes=2_000_000, elapsed_s=1.0))
    text = result.to_text()
    assert text.splitlines()[0] == "b.txt: best-found, tokens 2 (stopped: time)"
    assert "solution: F L" in text and "proof: exhausted up to 1 token" in text
    assert "2.00M nodes/s" in text and "NOT VERIFIED" in text
    result.verified = True
    assert "replay verified" in result.to_text() and "NOT VERIFIED" not in result.to_text()


def test_text_output_names_the_parts_of_a_solution_given_as_a_mapping():
    result = Result("ratrace", "seed/1", "best-found", solution={"game_seed": 7, "turns": 5000}, score=12)
    assert "solution: game seed 7, turns 5000" in result.to_text()


def test_text_says_what_stopped_a_search():
    result = Result("bunny", "b.txt", "best-found", solution="F F", score=2, score_name="tokens",
                    stopped="interrupted")
    assert result.to_text().splitlines()[0] == "b.txt: best-found, tokens 2 (stopped: interrupted)"

"""Every game's parsers on arbitrary text: a board or an InputError, never another exception.

For each game (through :func:`gridsolver.games.game`), arbitrary text and text
biased toward the game's own alphabet and shapes either parses or raises
InputError; whatever parses formats and parses back to an equal board. Solutions
typed on the command line (``parse_solution``) and solutions in their JSON form
(``check``) on a small shipped board give a result or an InputError, never
another exception.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridsolver.core.boards import split_boards
from gridsolver.core.errors import InputError
from gridsolver.games import GAMES, game

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                database=None)

HUGE = "9" * 5000  # past Python's 4,300-digit limit for int(): a number must be refused before that

#: the characters of each game's boards, a few neighbours, and line breaks
ALPHABETS = {
    "bunny": "S#O. \nx",
    "pegs": "o.- 10\n#x",
    "clickomania": "0123az.\n# Z",
    "samegame": "0123az.\n# Z",
    "ratrace": "0123456789abcdefA\n: g",
}
#: header lines each game reads (and near misses)
HEADERS = {
    "bunny": ["facing: south", "facing: north", "FACING: West", "facing: up", "facing:", "facing: " + HUGE],
    "pegs": ["jumps: diagonal", "jumps: triangular", "jumps: orthogonal", "jumps: hexagonal", "jumps:",
             "jumps: " + HUGE],
    "clickomania": ["# a comment"],
    "samegame": ["# a comment"],
    "ratrace": ["seed: 5", "seed: -3", "seed: x", "start: 0 1 2", "start: 99", "start: 1 1",
                "colour 1: teleporter -3 2", "colour 2: trap 1 -1", "colour 3: wall", "colour 4: empty",
                "colour 16: wall", "colour 5: trap 1", "colour 6: lava"],
}
#: solution pieces each game's notation uses (and near misses)
SOLUTION_WORDS = {
    "bunny": ["F", "L", "R", "f", "LOOP{", "LOOP(3){", "LOOP(0){", "loop ( 12 ) {", "}", "{", "LOOP(",
              "(", ")", "x", "99", " ", " ", f"LOOP({HUGE}){{", "LOOP(1000000000000000001){"],
    "pegs": ["(3,1)->(3,3)", "(1,3)->(3,3)", "(4,3)->(2,3)", "(0,0)->(0,2)", "(9,9)->(9,11)", "->", "(",
             ",", ")", "3", " ", " ", f"({HUGE},1)->(3,3)", HUGE],
    "clickomania": ["0,0", "4,0", "1,1", "(2,3)", "[4,4]", "9,9", "-1,0", ",", ";", "x", " ", " ", HUGE],
    "samegame": ["0,0", "4,0", "1,1", "(2,3)", "[4,4]", "9,9", "-1,0", ",", ";", "x", " ", " ", HUGE],
    "ratrace": ["1", "-7", "0", '{"game_seed": 1}', '{"game_seed": 1, "turns": 5}', '{"turns": -1}',
                "{", "}", '"', " "],
}
#: a small shipped board of each game, for the solution tests
SMALL = {"bunny": "01", "pegs": "triangle", "clickomania": "duel-5x5#1", "samegame": "duel-5x5#1",
         "ratrace": "seed/1"}

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20)


@st.composite
def board_text(draw: st.DrawFn, name: str) -> str:
    """Arbitrary text, or header lines then rows drawn from the game's alphabet."""
    if draw(st.booleans()):
        return draw(st.text(max_size=200))
    headers = draw(st.lists(st.sampled_from(HEADERS[name]), max_size=4))
    width = draw(st.integers(0, 12))
    row = st.one_of(st.text(ALPHABETS[name], min_size=width, max_size=width),
                    st.text(ALPHABETS[name], max_size=14))
    rows = draw(st.lists(row, min_size=1, max_size=10))
    return "\n".join(headers + rows)


@st.composite
def solution_text(draw: st.DrawFn, name: str) -> str:
    """Arbitrary text, or a run of the game's own solution words."""
    if draw(st.booleans()):
        return draw(st.text(max_size=100))
    return "".join(draw(st.lists(st.sampled_from(SOLUTION_WORDS[name]), max_size=30)))


def parse_every_board(name: str, text: str) -> list:
    """The boards of ``text``, or [] when the game refuses it with an InputError."""
    rules = game(name)
    try:
        return [rules.parse(block) for block in split_boards(text, "fuzz.txt", rules.comment)]
    except InputError:
        return []


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_board_text_parses_or_is_an_input_error_and_round_trips(name, data):
    rules = game(name)
    text = data.draw(board_text(name), label="text")
    for board in parse_every_board(name, text):
        again = rules.read(rules.format(board), "formatted")
        assert rules.equal(again, board), rules.format(board)


@pytest.fixture(scope="module")
def small_boards() -> dict:
    return {name: game(name).named(board) for name, board in SMALL.items()}


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_solution_text_checks_or_is_an_input_error(name, data, small_boards):
    rules = game(name)
    text = data.draw(solution_text(name), label="solution")
    try:
        solution = rules.parse_solution(text)
        rules.check(small_boards[name], solution)
    except InputError:
        pass


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(solution=JSON)
def test_json_solutions_check_or_are_an_input_error(name, solution, small_boards):
    try:
        game(name).check(small_boards[name], solution)
    except InputError:
        pass


# -- numbers past 64 bits in the rat race's tracks and solutions (issue 15) ---------------------------
def test_a_track_offset_past_64_bits_is_an_input_error():
    with pytest.raises(InputError):
        game("ratrace").read("colour 1: teleporter 99999999999999999999 2\n" + "\n".join(["0" * 10] * 5))


def test_a_game_seed_of_5000_digits_is_an_input_error():
    with pytest.raises(InputError):
        game("ratrace").parse_solution(HUGE)

"""The rat race's declared limits on what it reads: track size, offsets, seeds (issue 15).

Each limit is refused with a message naming the source, the value and the
limit, through the API (InputError) and through the CLI (one line, exit 2);
a track exactly at the limit is read, and read correctly.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from gridsolver.cli import cli
from gridsolver.core.errors import InputError
from gridsolver.ratrace.game import GAME
from gridsolver.ratrace.rules import COLOURS, MAX_HEIGHT, MAX_WIDTH, MOVES, Track, step, transitions
from gridsolver.ratrace.track import MAX_DIGITS, MAX_OFFSET

ROWS = "\n".join(["0" * 10] * 5)  # a small valid grid under the header being tested
SIZE_LIMIT = f"at most {MAX_WIDTH} wide and {MAX_HEIGHT} high"

#: (name, track text, what the message must say): every limit of the text format
REFUSED = [
    ("wide", "0" * (MAX_WIDTH + 1), [f"a row of {MAX_WIDTH + 1} cells", SIZE_LIMIT]),
    ("ten-megabyte-row", "0" * 10 * 2**20, ["a row of 10,485,760 cells", SIZE_LIMIT]),
    ("tall", "\n".join(["00000"] * (MAX_HEIGHT + 1)), [f"{MAX_HEIGHT + 1} rows of cells", SIZE_LIMIT]),
    ("offset-past-int64", "colour 1: teleporter 99999999999999999999 2\n" + ROWS,
     ["colour 1: offset 99999999999999999999", f"past {MAX_OFFSET}"]),
    ("offset-past-limit", f"colour 2: trap 0 -{MAX_OFFSET + 1}\n" + ROWS,
     [f"colour 2: offset -{MAX_OFFSET + 1}", f"past {MAX_OFFSET}"]),
    ("offset-of-5000-digits", "colour 1: trap 1 " + "9" * 5000 + "\n" + ROWS,
     [f"at most {MAX_DIGITS} digits", "(5,000 characters)"]),
    ("seed-of-21-digits", "seed: " + "1" * (MAX_DIGITS + 1) + "\n" + ROWS,
     ["'seed:'", f"at most {MAX_DIGITS} digits", "1" * (MAX_DIGITS + 1)]),
    ("start-of-5000-digits", "start: " + "9" * 5000 + "\n" + ROWS, [f"at most {MAX_DIGITS} digits"]),
    ("start-too-long", "start: " + "1 " * (MAX_HEIGHT + 1) + "\n" + ROWS,
     [f"lists {MAX_HEIGHT + 1} cells", f"at most {MAX_HEIGHT} rows"]),
    ("colour-of-5000-digits", "colour " + "1" * 5000 + ": wall\n" + ROWS,
     ["expected a colour number from 0 to 15", "(5,000 characters)"]),
    ("colour-not-ascii", "colour \u00b2: wall\n" + ROWS, ["colour '\u00b2'", "from 0 to 15"]),
]


def one_short_line(message: str) -> None:
    assert "\n" not in message and len(message) < 300, message


@pytest.mark.parametrize(("name", "text", "says"), REFUSED, ids=[case[0] for case in REFUSED])
def test_each_limit_is_an_input_error_naming_the_source_and_the_value(name, text, says):
    with pytest.raises(InputError) as caught:
        GAME.read(text, f"{name}.txt")
    message = str(caught.value)
    assert message.startswith(f"{name}.txt"), message
    for part in says:
        assert part in message, message
    one_short_line(message)


@pytest.mark.parametrize(("name", "text", "says"), REFUSED, ids=[case[0] for case in REFUSED])
def test_each_limit_is_one_line_and_exit_2_on_the_command_line(name, text, says, tmp_path):
    path = tmp_path / f"{name}.txt"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["ratrace", "format", str(path)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("gridsolver: error: ") and f"{name}.txt" in result.output
    assert says[0] in result.output
    one_short_line(result.output.strip())


def limit_track_text(with_starts: bool) -> str:
    """A random track of exactly MAX_WIDTH x MAX_HEIGHT, its offsets at +-MAX_OFFSET and small."""
    rng = np.random.default_rng(15)
    header = [f"seed: {2**64 - 1}",  # the largest seed: 20 digits
              f"colour 1: teleporter {MAX_OFFSET} -{MAX_OFFSET}", "colour 2: teleporter -3 2",
              f"colour 3: trap -{MAX_OFFSET} 0", "colour 4: trap 1 1", "colour 5: wall"]
    if with_starts:
        header.append("start: " + " ".join(str(y) for y in range(0, MAX_HEIGHT, 3)))
    rows = ["".join(f"{c:x}" for c in rng.integers(COLOURS, size=MAX_WIDTH)) for _ in range(MAX_HEIGHT)]
    return "\n".join(header + rows)


@pytest.mark.parametrize("with_starts", [True, False])
def test_a_track_exactly_at_the_limits_is_read_and_formats_back_to_itself(with_starts):
    track = GAME.read(limit_track_text(with_starts), "limit.txt")
    assert (track.width, track.height, track.seed) == (MAX_WIDTH, MAX_HEIGHT, 2**64 - 1)
    assert [tuple(track.offsets[c]) for c in (1, 3)] == [(MAX_OFFSET, -MAX_OFFSET), (-MAX_OFFSET, 0)]
    if with_starts:
        assert track.start_cells == list(range(0, MAX_HEIGHT, 3))
    assert GAME.read(GAME.format(track), "again") == track


def test_the_table_of_a_track_at_the_limit_agrees_with_step():
    """The table start cells come from (now built with numpy) against the rules' own step."""
    track = GAME.read(limit_track_text(with_starts=True), "limit.txt")
    table = transitions(track)
    rng = np.random.default_rng(1)
    for cell in rng.integers(track.width * track.height, size=3000):
        y, x = divmod(int(cell), track.width)
        for m, (dx, dy) in enumerate(MOVES):
            outcome, tx, ty = step(track, x, y, dx, dy)
            assert table[cell, m] == (outcome if outcome < 0 else ty * track.width + tx), (x, y, dx, dy)


def test_offsets_past_64_bits_given_to_a_track_in_python_do_not_wrap_around():
    """Offsets bigger than the text allows (a Track built in Python) still follow step."""
    kinds = np.zeros(COLOURS, dtype=np.int64)
    kinds[1], kinds[2] = 1, 2  # a teleporter and a trap
    offsets = np.zeros((COLOURS, 2), dtype=np.int64)
    offsets[1] = (2**62, -(2**62))
    offsets[2] = (-(2**62), 2**62)
    colours = np.random.default_rng(3).integers(3, size=(6, 12))
    track = Track(colours=colours, kinds=kinds, offsets=offsets)
    table = transitions(track)
    for y in range(track.height):
        for x in range(track.width):
            for m, (dx, dy) in enumerate(MOVES):
                outcome, tx, ty = step(track, x, y, dx, dy)
                assert table[y * track.width + x, m] == (outcome if outcome < 0 else ty * track.width + tx)


@pytest.mark.parametrize("digits", [MAX_DIGITS + 1, 5000])
def test_a_seed_name_or_game_seed_of_too_many_digits_is_refused(digits):
    number = "9" * digits
    with pytest.raises(InputError, match=f"at most {MAX_DIGITS} digits") as caught:
        GAME.named(f"seed/{number}")
    one_short_line(str(caught.value))
    with pytest.raises(InputError, match=f"game seed '9+.*at most {MAX_DIGITS} digits") as caught:
        GAME.parse_solution(number)
    one_short_line(str(caught.value))


def test_seeds_of_20_digits_are_read():
    largest = 2**64 - 1
    assert GAME.named(f"seed/{largest}").seed == largest
    assert GAME.named(f"seed/-{largest}").seed == -largest
    assert GAME.parse_solution(f" -{largest} ") == {"game_seed": -largest}
    assert GAME.parse_solution("7") == {"game_seed": 7}


def test_a_seed_name_of_too_many_digits_is_one_line_on_the_command_line():
    result = CliRunner().invoke(cli, ["ratrace", "format", "seed/" + "9" * 5000])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("gridsolver: error: 'seed/999")
    assert f"at most {MAX_DIGITS} digits" in result.output
    one_short_line(result.output.strip())

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver.bunny.notation import format_program, parse_program
from gridsolver.bunny.rules import Loop
from gridsolver.core.errors import InputError

tokens = st.recursive(
    st.sampled_from(["F", "L", "R"]),
    lambda inner: st.builds(Loop, st.one_of(st.none(), st.integers(0, 10**6)),
                            st.lists(inner, max_size=4).map(tuple)),
    max_leaves=12,
)
programs = st.lists(tokens, max_size=6).map(tuple)


@given(programs)
def test_print_then_parse_gives_the_program_back(program):
    assert parse_program(format_program(program)) == program


@given(programs)
def test_parse_then_print_is_stable(program):
    text = format_program(program)
    assert format_program(parse_program(text)) == text


def test_examples_and_loose_spacing():
    assert parse_program("LOOP{F LOOP(7){F L}}") == (Loop(None, ("F", Loop(7, ("F", "L")))),)
    assert parse_program("  loop ( 3 ) { f r }  L ") == (Loop(3, ("F", "R")), "L")
    assert format_program((Loop(3, ()),)) == "LOOP(3){}"


@pytest.mark.parametrize("text, words", [
    ("F X", "unknown token 'X' at character 3"),
    ("F }", "unmatched '}' at character 3"),
    ("LOOP(2){F", "opened at character 1 is never closed"),
    ("LOOP(-1){F}", "unknown token"),
])
def test_bad_programs(text, words):
    with pytest.raises(InputError, match="program: .*" + words.split(" at")[0]):
        parse_program(text)
    with pytest.raises(InputError) as caught:
        parse_program(text)
    assert words in str(caught.value)

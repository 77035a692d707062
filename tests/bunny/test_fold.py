"""Loop folding: the same hops in fewer tokens, and the best-found answers it shortens."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver import bunny
from gridsolver.bunny.fold import absorb_tail, fold
from gridsolver.bunny.generate import random_board
from gridsolver.bunny.notation import parse_program
from gridsolver.bunny.rules import Loop, flatten, simulate, token_count
from gridsolver.bunny.walk import walk_program

from .helpers import random_program


def repetitive_program(seed: int) -> tuple:
    """Runs of a few random blocks, as the greedy walk writes on regular boards."""
    rng = random.Random(seed)
    blocks = [random_program(rng, rng.randint(1, 4), max_count=4) for _ in range(3)]
    program: tuple = ()
    for _ in range(rng.randint(1, 6)):
        program += rng.choice(blocks) * rng.randint(1, 5)
    return program


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_folding_keeps_every_hop_and_never_adds_tokens(seed):
    program = repetitive_program(seed)
    folded = fold(program)
    assert flatten(folded) == flatten(program)
    assert token_count(folded) <= token_count(program)


def test_runs_become_loops_inner_runs_too():
    program = ("F", "F", "F", "L") * 9
    assert fold(program) == (Loop(9, (Loop(3, ("F",)), "L")),)  # 36 tokens -> 5
    assert fold((Loop(3, ("F",)),) * 4) == (Loop(12, ("F",)),)  # LOOP(4){LOOP(3){F}} is LOOP(12){F}
    assert fold(("F", "L", "R")) == ("F", "L", "R")  # nothing repeats: unchanged


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_absorbing_a_tail_starts_with_the_same_hops(seed):
    """A run stops once the board is marked: the longer form must make the same hops first."""
    rng = random.Random(seed)
    body = random_program(rng, rng.randint(1, 5), max_count=3)
    hops = flatten(body)
    tail = tuple(hops[:rng.randint(0, len(hops))]) if rng.random() < 0.7 else tuple(rng.choice("FLR") for _ in
                                                                                      range(3))
    program = random_program(rng, rng.randint(0, 3)) + (Loop(rng.randint(1, 4), body),) + tail
    absorbed = absorb_tail(program)
    assert flatten(absorbed)[:len(flatten(program))] == flatten(program)
    assert token_count(absorbed) <= token_count(program)


def test_a_tail_that_begins_the_loop_joins_it():
    assert absorb_tail(parse_program("R LOOP(3){F F L} F F")) == parse_program("R LOOP(4){F F L}")
    assert absorb_tail(parse_program("LOOP(3){F F L} F L")) == parse_program("LOOP(3){F F L} F L")


def test_a_budget_stopped_search_answers_with_a_folded_program():
    """Past the proof's reach the search stops by its budget: the answer is far shorter than the
    walk it starts from (351 tokens on this 400-square board), verified, and honest."""
    board = random_board(seed=6, squares=400, tokens=10).board
    walk = token_count(walk_program(board))
    result = bunny.solve(board, time=60, nodes=20_000)
    assert result.status == "best-found" and result.stopped == "nodes" and result.verified
    assert result.score < walk // 4
    assert simulate(board, parse_program(result.details["finite_form"])).solved

from gridsolver.pegs import geometry, rules
from tests.pegs.test_rules import board_of, named


def test_symmetry_group_sizes():
    assert len(geometry.symmetries(named("english"))) == 8
    assert len(geometry.symmetries(named("triangle"))) == 6
    assert len(geometry.symmetries(named("3x5"))) == 4
    assert len(geometry.symmetries(board_of("o.o\noo-"))) == 1


def test_symmetries_map_jumps_to_jumps():
    for name in ("english", "triangle", "diamond"):
        board = named(name)
        jumps = set(rules.triples(board))
        for perm in geometry.symmetries(board):
            assert {(perm[a], perm[b], perm[c]) for a, b, c in jumps} == jumps


def test_fixing_the_centre_keeps_all_eight():
    board = named("english")
    perms = geometry.symmetries(board)
    assert len(geometry.fixing(perms, board, (3, 3))) == 8
    assert len(geometry.fixing(perms, board, (3, 1))) == 2


def test_position_classes():
    english, european = named("english"), named("european")
    assert geometry.PositionClasses(english).count == 16
    centre = 1 << english.index((3, 3))
    assert geometry.PositionClasses(english).same_class(english.pegs, centre)
    # the European central game is impossible: the classic position-class argument
    assert not geometry.PositionClasses(european).same_class(european.pegs, 1 << european.index((3, 3)))


def test_classes_are_invariant_under_jumps():
    board = named("english")
    classes = geometry.PositionClasses(board)
    after = rules.apply(board, ((1, 3), (3, 3)))
    assert classes.same_class(board.pegs, after.pegs)
    assert not classes.same_class(board.pegs, after.pegs ^ (1 << board.index((0, 2))))

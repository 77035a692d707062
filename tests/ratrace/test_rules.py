"""Each rule of a turn on small hand-built tracks (rules.step, the table and the game)."""

from gridsolver.ratrace.rules import DEAD, GOAL, TELEPORTER, TRAP, WALL, move_index, step, transitions

from .helpers import build_track

KINDS = {1: WALL, 2: TRAP, 3: TELEPORTER, 4: TRAP, 5: TELEPORTER}


def track(rows, offsets=None):
    return build_track(rows, KINDS, {2: (1, 0), 3: (2, 0), 4: (0, 0), 5: (0, -1), **(offsets or {})})


def outcome(t, x, y, dx, dy):
    """step(), checked against the transition table the kernels use."""
    result = step(t, x, y, dx, dy)
    table = transitions(t)[y * t.width + x, move_index(dx, dy)]
    expected = result[0] if result[0] < 0 else result[2] * t.width + result[1]
    assert table == expected
    return result


def test_a_wall_refuses_the_move():
    t = track(["..#.....",
               "........"])
    assert outcome(t, 1, 0, 1, 0) == (0, 1, 0)
    assert outcome(t, 1, 1, 1, -1) == (0, 1, 1)  # diagonal into the wall: stays too
    assert outcome(t, 1, 0, 1, 1) == (0, 2, 1)


def test_a_rat_on_a_teleporter_refused_by_a_wall_is_teleported_again():
    t = track(["T#......",
               "........"])
    assert outcome(t, 0, 0, 1, 0) == (0, 2, 0)  # stays on T, teleported by (2, 0)
    assert outcome(t, 0, 0, 0, 0) == (0, 2, 0)  # standing still on T teleports as well


def test_teleports_never_chain():
    t = track(["T.T.....",
               "........"])
    assert outcome(t, 0, 0, 0, 0) == (0, 2, 0)  # lands on the second T and stays there


def test_a_teleport_into_a_wall_kills():
    t = track([".T.#....",
               "........"])
    assert outcome(t, 0, 0, 1, 0)[0] == DEAD


def test_a_teleport_off_the_track_kills():
    t = track([".U......",
               "........"])  # U: offset (0, -1) from row 0 leaves the track
    assert outcome(t, 0, 0, 1, 0)[0] == DEAD
    assert outcome(t, 0, 1, 1, -1)[0] == DEAD
    assert outcome(t, 0, 1, 1, 0) == (0, 1, 1)


def test_moving_off_the_track_kills():
    t = track(["........",
               "........"])
    assert outcome(t, 0, 0, -1, 0)[0] == DEAD
    assert outcome(t, 3, 1, 0, 1)[0] == DEAD


def test_a_trap_with_offset_zero_kills_its_own_cell():
    t = track([".Z......",
               "........"])
    assert outcome(t, 0, 0, 1, 0)[0] == DEAD
    assert t.lethal[0, 1]


def test_a_trap_kills_the_cell_at_its_offset_not_itself():
    t = track([".X......",
               "........"])  # X: offset (1, 0)
    assert outcome(t, 0, 0, 1, 0) == (0, 1, 0)
    assert outcome(t, 1, 1, 1, -1)[0] == DEAD
    assert t.lethal[0, 2] and not t.lethal[0, 1]


def test_a_wall_is_lethal_when_landed_on_and_lethal_beats_goal():
    t = track(["..X.....",
               "........"], offsets={2: (2, 0)})  # the trap makes goal-adjacent x=4 lethal
    assert t.goal_x == 4
    assert outcome(t, 3, 0, 1, 0)[0] == DEAD
    assert outcome(t, 3, 1, 1, 0)[0] == GOAL


def test_reaching_the_goal_scores_even_by_teleport():
    t = track(["..T.....",
               "........"])
    assert outcome(t, 1, 0, 1, 0)[0] == GOAL
    assert outcome(t, 1, 0, 1, 1) == (0, 2, 1)


def _spec_outcome(track, lethal, x, y, dx, dy):
    """Steps 3-6 restated from the spec's prose, independently of rules.step."""
    def inside(cx, cy):
        return 0 <= cx < track.width and 0 <= cy < track.height

    def kind(cx, cy):
        return int(track.kinds[track.colours[cy, cx]]) if inside(cx, cy) else None

    nx, ny = x + dx, y + dy
    if kind(nx, ny) == WALL:  # 3. the move becomes (0, 0)
        nx, ny = x, y
    if kind(nx, ny) == TELEPORTER:  # 4. moved once by the colour's offset
        ox, oy = (int(v) for v in track.offsets[track.colours[ny, nx]])
        nx, ny = nx + ox, ny + oy
    if not inside(nx, ny) or (nx, ny) in lethal:  # 5. outside, walls and trap targets kill
        return DEAD
    if nx >= 49:  # 6. x >= 49 is the goal
        return GOAL
    return ny * track.width + nx


def test_generated_tracks_obey_an_independent_statement_of_the_turn_rules():
    from gridsolver.ratrace.generate import generate_track
    from gridsolver.ratrace.rules import MOVES

    for seed in (1, 7, 23):
        t = generate_track(seed)
        lethal = set()
        for y in range(t.height):
            for x in range(t.width):
                colour = int(t.colours[y, x])
                if t.kinds[colour] == WALL:
                    lethal.add((x, y))
                elif t.kinds[colour] == TRAP:
                    lethal.add((x + int(t.offsets[colour][0]), y + int(t.offsets[colour][1])))
        table = transitions(t)
        for y in range(t.height):
            for x in range(t.width):
                for m, (dx, dy) in enumerate(MOVES):
                    assert table[y * t.width + x, m] == _spec_outcome(t, lethal, x, y, dx, dy), \
                        (seed, x, y, dx, dy)

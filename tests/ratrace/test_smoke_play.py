"""End-to-end: the CLI plays a short tournament and shows a track."""

import json

from click.testing import CliRunner

from gridsolver.cli import cli


def test_play_json_reports_points_per_track_and_a_geometric_mean():
    result = CliRunner().invoke(cli, ["ratrace", "play", "--player", "colour-score", "--tracks", "2",
                                      "--turns", "50", "--workers", "1", "--json", "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["details"]["seed"] for line in lines[:2]] == [3, 4]
    points = [line["score"] for line in lines[:2]]
    assert all(p >= 1 for p in points)
    assert lines[2]["details"]["points"] == points
    assert lines[2]["score"] == round((points[0] * points[1]) ** 0.5, 3)


def test_unknown_player_is_a_one_line_error():
    result = CliRunner().invoke(cli, ["ratrace", "play", "--player", "nobody", "--tracks", "1"])
    assert result.exit_code == 2
    assert "no such player" in result.output

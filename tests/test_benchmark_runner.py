import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from runner import Table, section, write_section  # noqa: E402


def test_write_section_replaces_only_its_own_section(tmp_path):
    path = tmp_path / "BENCHMARKS.md"
    path.write_text("# Benchmarks\n")
    first = Table("Speed", ["board", "s"], rows=[["a", 1.5]])
    write_section("alpha", section("alpha", [first], "cmd"), path)
    write_section("beta", section("beta", [Table("Other", ["x"], rows=[[1]])], "cmd"), path)
    second = Table("Speed", ["board", "s"], rows=[["a", 0.25]])
    write_section("alpha", section("alpha", [second], "cmd"), path)
    text = path.read_text()
    assert text.count("<!-- bench:alpha -->") == 1 and text.count("<!-- bench:beta -->") == 1
    assert "| a | 0.25 |" in text and "| a | 1.5 |" not in text
    assert text.index("bench:alpha") < text.index("bench:beta")


def test_table_markdown_escapes_pipes_and_formats_numbers():
    table = Table("T", ["program", "n"], rows=[["LOOP{F|L}", 123456]], notes=["note"])
    assert table.markdown().splitlines()[4] == "| LOOP{F\\|L} | 123,456 |"


def test_records_are_kept_only_when_the_run_writes_and_a_later_part_replaces_its_key(tmp_path, monkeypatch):
    import runner

    monkeypatch.setattr(runner, "RUN", runner.Run(write=False, commit="aaa1111"))
    runner.Records("long", tmp_path).put({"seed": 1, "time": 300}, {"total": 5})
    assert not (tmp_path / "long.jsonl").exists()
    monkeypatch.setattr(runner, "RUN", runner.Run(write=True, commit="bbb2222"))
    store = runner.Records("long", tmp_path)
    store.put({"seed": 1, "time": 300}, {"total": 7})
    store.put({"seed": 2, "time": 300}, {"total": 8})
    store.put({"seed": 1, "time": 60}, {"total": 1})
    again = runner.Records("long", tmp_path)  # read back, as a later sitting would
    assert [(r["key"]["seed"], r["data"]["total"], r["commit"]) for r in again.matching(time=300)] == \
        [(1, 7, "bbb2222"), (2, 8, "bbb2222")]
    monkeypatch.setattr(runner, "RUN", runner.Run(write=True, commit="ccc3333"))
    again.put({"seed": 1, "time": 300}, {"total": 9})
    kept = runner.Records("long", tmp_path).matching(time=300)
    assert [(r["key"]["seed"], r["data"]["total"], r["commit"]) for r in kept] == \
        [(2, 8, "bbb2222"), (1, 9, "ccc3333")]


def test_a_samegame_section_is_built_from_every_seed_kept_each_row_naming_its_commit(tmp_path, monkeypatch):
    import bench_samegame
    import runner

    monkeypatch.setattr(runner, "RECORDS_DIR", tmp_path)
    monkeypatch.setattr(runner, "RUN", runner.Run(write=True, commit="x"))
    settings = {"time": 60.0, "positions": [1, 2], "workers": bench_samegame.WORKERS}
    for seed, commit, scores in ((2, "bbb2222", [30, 40]), (1, "aaa1111", [10, 50])):
        runner.RUN.commit = commit
        runner.Records("samegame").put({"seed": seed, **settings}, {
            "scores": scores, "found_by": ["a", "b"], "cleared": 2, "nodes": 1000, "endgame": 100,
            "searched": 10.0, "method": "nrpa", "wall": 60.0})
    monkeypatch.setattr(runner, "RUN", runner.Run(from_records=True))
    monkeypatch.setattr(bench_samegame, "RUN", runner.RUN)
    per_seed, spread, by_position = bench_samegame.report("samegame", [None, None], [1, 2], 60.0, "Goal")
    assert [(row[0], row[5], row[-2]) for row in per_seed.rows] == [(1, 60, "aaa1111"), (2, 70, "bbb2222")]
    assert spread.rows[0][:4] == [2, 65, 60, 70]
    assert [row[1:4] for row in by_position.rows] == [[10, 30, 30], [50, 40, 50]]
    text = runner.section("samegame", [per_seed, spread, by_position], "cmd", records=True)
    assert "benchmarks/records/samegame.jsonl" in text and "_Code: commit" not in text


def test_benchmarks_md_holds_only_what_the_runner_writes():
    """The runner's header, then sections under ``## NAME``, each only the runner's own block: notes
    written by hand belong in the documentation, not between the tables."""
    import re

    from runner import BENCHMARKS_MD, HEADER

    text = BENCHMARKS_MD.read_text()
    assert text.startswith(HEADER)
    rest = text[len(HEADER):]
    blocks = re.findall(r"\n## (\S+)\n\n<!-- bench:(\S+) -->.*?<!-- /bench:\2 -->\n", rest, re.S)
    assert blocks and all(heading == name for heading, name in blocks)
    leftover = re.sub(r"\n## (\S+)\n\n<!-- bench:\1 -->.*?<!-- /bench:\1 -->\n", "", rest, flags=re.S)
    assert leftover.strip() == "", leftover[:500]

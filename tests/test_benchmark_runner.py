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

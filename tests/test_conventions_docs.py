"""The reference states the conventions the output follows: coordinates, board labels, exit codes."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_reference_has_a_coordinates_page_in_its_navigation():
    page = (ROOT / "docs" / "reference" / "coordinates.md").read_text(encoding="utf-8")
    assert "counted from 0" in page and "row 0 is the top row" in page
    assert "`standard-20#3` is the third board" in page
    assert "reference/coordinates.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_contract_states_the_json_coordinates_and_the_exit_code_of_a_missed_objective():
    contract = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    json_section = contract.split("## Result and its JSON", 1)[1].split("\n## ", 1)[0]
    assert "Coordinates in the JSON are those of the text output" in json_section
    exit_section = contract.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    assert "legal but does not solve the board or misses the objective" in exit_section

"""The journal behind --resume: results kept as JSON lines, a torn last line dropped."""

from __future__ import annotations

import json

import pytest

from gridsolver.core.errors import InputError
from gridsolver.core.resume import Journal


def lines(*records: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def by_input(record: dict) -> str:
    return record["input"]


def test_a_journal_keeps_each_record_on_disk_as_it_is_written(tmp_path):
    path = tmp_path / "run.jsonl"
    with Journal(str(path), by_input) as journal:
        journal.record({"input": "a", "score": 1})
        assert json.loads(path.read_text()) == {"input": "a", "score": 1}  # readable before it closes
        journal.record({"input": "b", "score": 2})
    again = Journal(str(path), by_input)
    assert again.take("b") == {"input": "b", "score": 2} and again.take("a")["score"] == 1
    assert again.take("a") is None and again.take("c") is None


def test_units_of_the_same_name_are_taken_in_the_order_they_were_written(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(lines({"input": "english", "n": 1}, {"input": "english", "n": 2}))
    journal = Journal(str(path), by_input)
    assert [journal.take("english")["n"], journal.take("english")["n"]] == [1, 2]
    assert journal.take("english") is None


def test_a_line_torn_by_a_kill_is_dropped_and_cut_from_the_file(tmp_path):
    path = tmp_path / "run.jsonl"
    whole = lines({"input": "a"}, {"input": "b"})
    path.write_text(whole + '{"input": "c", "sco')
    journal = Journal(str(path), by_input)
    assert journal.take("c") is None and journal.take("b") is not None
    assert path.read_text() == whole
    journal.record({"input": "c"})
    journal.close()
    assert [json.loads(line)["input"] for line in path.read_text().splitlines()] == ["a", "b", "c"]


def test_a_file_that_is_not_this_commands_results_is_bad_input(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(lines({"input": "a"}) + "not json\n" + lines({"input": "b"}))
    with pytest.raises(InputError, match=r"run.jsonl, line 2"):
        Journal(str(path), by_input)
    path.write_text(lines({"board": "a"}))
    with pytest.raises(InputError, match="not a result of this command"):
        Journal(str(path), by_input)


def test_a_missing_file_is_a_fresh_run(tmp_path):
    journal = Journal(str(tmp_path / "new.jsonl"), by_input)
    assert journal.take("a") is None
    assert not (tmp_path / "new.jsonl").exists()  # nothing written until a result is

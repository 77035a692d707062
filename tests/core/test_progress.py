import io
import sys

from gridsolver.core.progress import progress


def test_silent_when_not_a_terminal(monkeypatch):
    monkeypatch.delenv("GRIDSOLVER_NO_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a TTY
    with progress(10, "work", delay=0) as bar:
        for _ in range(10):
            bar.advance()
        bar.note("best 3")
        assert not bar.shown
    assert sys.stderr.getvalue() == ""


def test_environment_switch_silences_a_terminal(monkeypatch):
    class FakeTTY(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", FakeTTY())
    monkeypatch.setenv("GRIDSOLVER_NO_PROGRESS", "1")
    with progress(3, "work", delay=0) as bar:
        bar.advance()
        assert not bar.shown
    monkeypatch.delenv("GRIDSOLVER_NO_PROGRESS")
    with progress(3, "work", delay=0) as bar:
        bar.advance()
        assert bar.shown
    assert not bar.shown  # closed on exit


def test_display_waits_for_the_delay():
    with progress(None, "work", delay=60, enabled=True) as bar:
        bar.advance(5)
        assert bar.done == 5 and not bar.shown

"""The session runner and its sources: pacing, pause, seek, a vanished camera, what-if."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.events import Event
from referee.rules import make_game, replay
from referee.rules.base import OptionError
from referee.session import (
    Broadcaster,
    EventFileSource,
    Referee,
    SessionError,
    SessionRunner,
    SessionSource,
    SourceItem,
    SourceUnavailable,
)
from referee.store import SessionStore


def wait_for(check: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


@pytest.fixture
def ref(tmp_path: Path) -> Iterator[Referee]:
    store = SessionStore(tmp_path / "s.sqlite", durable=False)
    referee = Referee(store)
    yield referee
    referee.close()
    store.close()


def texts(rulings: list[dict[str, object]]) -> list[object]:
    return [(r["id"], r["kind"], r["text"]) for r in rulings]


def test_event_file_source_is_a_session_source(example_events: list[Event]) -> None:
    assert isinstance(EventFileSource(example_events[:3]), SessionSource)
    with pytest.raises(ValueError, match="speed"):
        EventFileSource(example_events[:3], speed=0)


def test_replay_folds_like_adjudicate_and_stores_everything(
        ref: Referee, example_events: list[Event]) -> None:
    events = example_events[:40]
    runner = ref.new_session("castle-croquetnole", {}, EventFileSource(events, speed=200))
    wait_for(lambda: runner.status == "finished")
    expected = [r.to_json() for r in replay(make_game("castle-croquetnole"), events).rulings]
    assert texts(runner.rulings) == texts(expected)
    assert [e.event for e in ref.store.events(runner.id)] == events
    assert texts(ref.store.rulings(runner.id)) == texts(expected)


def test_pause_stops_the_clock_and_resume_goes_on(ref: Referee,
                                                 example_events: list[Event]) -> None:
    events = example_events[:30]
    runner = ref.new_session("castle-croquetnole", {}, EventFileSource(events, speed=20))
    wait_for(lambda: runner.head >= 3)
    runner.control("pause")
    held = runner.head
    time.sleep(0.3)
    assert runner.head == held and runner.info()["paused"]
    runner.control("speed", 500)
    runner.control("resume")
    wait_for(lambda: runner.status == "finished")
    assert runner.head == len(events)
    with pytest.raises(SessionError):
        runner.control("speed", -1)
    with pytest.raises(SessionError):
        runner.control("fly")


def test_seek_back_replays_from_the_store_without_duplicates(
        ref: Referee, example_events: list[Event]) -> None:
    events = example_events[:40]
    runner = ref.new_session("castle-croquetnole", {}, EventFileSource(events, speed=300))
    wait_for(lambda: runner.status == "finished")
    final = texts(runner.rulings)
    runner.control("pause")
    runner.control("seek", 5.0)
    assert runner.cursor < runner.head and all(e.t < 5.0 for e in runner.events[:runner.cursor])
    assert runner.summary() == replay(make_game("castle-croquetnole"),
                                      [e for e in events if e.t < 5.0]).state.summary()
    with pytest.raises(SessionError, match="rewound"):
        runner.declare(1, "end_play")
    runner.control("resume")
    wait_for(lambda: runner.at_head and runner.status == "finished")
    assert runner.head == len(events) == len(ref.store.events(runner.id))
    assert texts(runner.rulings) == final


def test_seek_forward_skips_nothing(ref: Referee, example_events: list[Event]) -> None:
    events = example_events[:25]
    runner = ref.new_session("castle-croquetnole", {}, EventFileSource(events, speed=1))
    runner.control("seek", events[-1].t + 1)
    wait_for(lambda: runner.status == "finished", timeout=5)
    assert [e.event for e in runner.events] == events


class FlakyCamera(EventFileSource):
    """A source whose device vanishes after a few events and comes back on the second try."""

    kind = "flaky"

    def __init__(self, events: list[Event], vanish_after: int) -> None:
        super().__init__(events, speed=500)
        self.vanish_after = vanish_after
        self.reopen_calls = 0
        self.vanished = False

    def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
        for item in super().items(start_index, start_t):
            if not self.vanished and item.index == self.vanish_after:
                self.vanished = True
                raise SourceUnavailable("camera 0 vanished")
            yield SourceItem(item.event, item.index, frame=(item.index or 0, item.event.t)
                             if item.event else None, jpeg=b"\xff\xd8", generation=item.generation)

    def reopen(self) -> None:
        self.reopen_calls += 1
        if self.reopen_calls < 2:
            raise SourceUnavailable("still gone")


def test_a_vanished_camera_pauses_reconnects_and_invents_nothing(
        ref: Referee, example_events: list[Event]) -> None:
    events = example_events[:30]
    source = FlakyCamera(events, vanish_after=10)
    runner = ref.new_session("castle-croquetnole", {}, source)
    runner.reconnect_s = 0.02
    wait_for(lambda: runner.status == "finished")
    assert [e.event for e in ref.store.events(runner.id)] == events
    statuses = [n["data"]["status"] for n in ref.store.notes(runner.id, "status")]
    assert statuses[:4] == ["running", "camera lost", "running", "finished"]
    assert source.reopen_calls == 2
    assert len(ref.store.frames(runner.id)) == len(events) and runner.latest_jpeg


def test_declarations_and_overrides_are_events(ref: Referee,
                                               example_events: list[Event]) -> None:
    runner = ref.new_session("castle-croquetnole", {}, None)
    for i, e in enumerate(example_events[:60]):
        runner.add_source_event(e, i)
    player = runner.summary()["turn"]["player"]
    new = runner.declare(player, "end_play")
    assert new and ref.store.events(runner.id)[-1].origin == "player"
    with pytest.raises(SessionError):
        runner.declare(7, "end_play")
    with pytest.raises(SessionError):
        runner.override("999.0", "x", "")
    score = next(r for r in runner.rulings if r["kind"] == "score")
    runner.override(score["id"], "Ann", "no")
    assert any(r["id"] == score["id"] and r["overruled"] for r in runner.ruling_list())
    # Reopening the stored session folds to the same state.
    again = SessionRunner(ref.store, runner.id)
    assert again.summary() == runner.summary() and texts(again.rulings) == texts(runner.rulings)


def test_readjudicate(ref: Referee, example_events: list[Event]) -> None:
    runner = ref.new_session("castle-croquetnole", {}, None)
    for i, e in enumerate(example_events[:200]):
        runner.add_source_event(e, i)
    same = runner.readjudicate({})
    assert same["changed"] == [] and not same["summary_changed"]
    other = runner.readjudicate({"bonus_mode": "play_again"})
    assert other["changed"]
    with pytest.raises(OptionError):
        runner.readjudicate({"no_such_option": "1"})


def test_broadcaster_drops_a_subscriber_that_cannot_keep_up() -> None:
    b = Broadcaster(maxsize=2)
    q = b.subscribe()
    for n in range(5):
        b.publish("update", n)
    assert b.subscribers == 0
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    assert items[-1] is None
    b.close()
    assert b.subscribe().get_nowait() is None


def test_an_event_the_rules_refuse_is_noted_not_stored(ref: Referee,
                                                      example_events: list[Event]) -> None:
    from referee.events import Flick

    events = [*example_events[:5], Flick(example_events[4].t + 0.5, "bogus"),
              *[e for e in example_events[5:12]]]
    runner = ref.new_session("castle-croquetnole", {}, EventFileSource(events, speed=500))
    wait_for(lambda: runner.status == "finished")
    assert [e.event for e in ref.store.events(runner.id)] == example_events[:12]
    refused = ref.store.notes(runner.id, "refused")
    assert len(refused) == 1 and "bogus" in refused[0]["data"]["error"]


def test_restart_finds_the_unfinished_session_of_the_same_source(
        ref: Referee, example_events: list[Event]) -> None:
    class Recording(EventFileSource):
        def __init__(self, name: str) -> None:
            super().__init__(example_events[:3], speed=1)
            self.name = name

        def describe(self) -> dict[str, object]:
            return {"kind": "camera", "camera": 0, "record_to": self.name}

    ref.new_session("castle-croquetnole", {}, None, label="x")
    sid = ref.store.create_session("castle-croquetnole", {}, Recording("a.mp4").describe())
    assert ref.find_resumable(Recording("b.mp4")) == sid
    ref.store.add_note(sid, "status", {"status": "finished"})
    assert ref.find_resumable(Recording("c.mp4")) is None


def test_rulings_are_provisional_until_the_coins_settle(ref: Referee,
                                                       example_events: list[Event]) -> None:
    runner = ref.new_session("castle-croquetnole", {}, None)
    events = example_events[:12]  # ... a flick of suns crossing gates, then its settle
    settle = max(i for i, e in enumerate(events) if e.type == "settled")
    for i, e in enumerate(events[:settle]):
        runner.add_source_event(e, i)
    last_flick = max(s.seq for s in runner.events if s.event.type == "flick")
    during = runner.ruling_list()
    assert any(r["provisional"] for r in during)
    assert all(r["provisional"] == (r["seq"] >= last_flick) for r in during)
    runner.add_source_event(events[settle], settle)
    assert not any(r["provisional"] for r in runner.ruling_list())


def test_a_source_that_breaks_shows_an_error(ref: Referee,
                                             example_events: list[Event]) -> None:
    class Broken(EventFileSource):
        def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
            yield from super().items(start_index, start_t)
            raise RuntimeError("decoder crashed")

    runner = ref.new_session("castle-croquetnole", {}, Broken(example_events[:4], speed=500))
    wait_for(lambda: runner.status == "error")
    assert runner.head == 4
    assert "decoder crashed" in ref.store.notes(runner.id, "status")[-1]["data"]["error"]


def test_a_frames_events_are_stored_and_shown_together(ref: Referee,
                                                       example_events: list[Event]) -> None:
    events = example_events[:6]

    class OneFrame(EventFileSource):
        def items(self, start_index: int, start_t: float) -> Iterator[SourceItem]:
            yield SourceItem(frame=(0, 0.0))
            for i, e in enumerate(events):
                yield SourceItem(event=e, index=i, more=i + 1 < len(events))

    source = OneFrame(events)
    runner = ref.new_session("castle-croquetnole", {}, None)
    updates = runner.broadcaster.subscribe()
    runner.source = source
    runner.start()
    wait_for(lambda: runner.status == "finished")
    assert [e.event for e in ref.store.events(runner.id)] == events
    kinds = []
    while not updates.empty():
        msg = updates.get_nowait()
        if msg is not None:
            kinds.append(msg[1])
    assert kinds.count("update") == 1, kinds
    assert len({w for (w,) in ref.store._db.execute(
        "SELECT wall FROM events WHERE session=?", (runner.id,))}) == 1, "one transaction"

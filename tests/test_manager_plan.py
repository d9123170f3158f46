"""Issue 20.5: a move is planned without any I/O (:meth:`PlayService.plan_move`) and then
written (:meth:`PlayService.commit_move`). These tests plan moves with no database at all:
the service stands on a core that holds nothing but the limits."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import engine
from bot.manager import (
    DAY,
    Game,
    InvalidMove,
    Limits,
    NotAllowed,
    NotYourTurn,
    StaleAction,
    UserSettings,
)
from bot.manager.play import PlayService
from bot.manager.values import MovePlan
from bot.rules import conditionals

ANN, BOB = 1001, 1002
NOW = 1_700_000_000.0


def _service() -> PlayService:
    """A PlayService with no store, repositories or other services: any I/O would fail."""
    return PlayService(SimpleNamespace(limits=Limits()), None, None, None, None, None)


def _game(pos: engine.Position, **kw) -> Game:
    values = dict(id=7, guild_id=1, channel_id=2, thread_id=None, kind=pos.kind, options={"size": 5},
                  players={1: ANN, 2: BOB}, status="active", ply=pos.ply, position_text=pos.to_text(),
                  position=pos, winner=None, reason=None, rated=True, days_per_move=3,
                  created_at=NOW - DAY, updated_at=NOW - DAY, deadline=NOW + DAY, challenge_id=1)
    values.update(kw)
    return Game(**values)


def _settings() -> dict[int, UserSettings]:
    return {ANN: UserSettings(False, None, 14.0), BOB: UserSettings(False, None, 14.0)}


def _start() -> engine.Position:
    return engine.new_game("coil", size=5)


def test_a_plain_move_is_planned_with_the_next_deadline_and_ping():
    pos = _start()
    move = pos.random_move(random.Random(1))
    plan = _service().plan_move(_game(pos), ANN, move, settings=_settings(), trees={}, now=NOW)
    assert isinstance(plan, MovePlan)
    assert plan.seat == 1 and plan.replies == () and plan.trees == {}
    assert plan.final == pos.play(move) and plan.move == plan.final.last_move
    assert plan.after.ply == pos.ply + 1 and plan.after.position == plan.final
    assert plan.after.status == "active" and plan.final.outcome is None
    assert plan.ping == BOB and plan.to_move_settings == _settings()[BOB]
    assert plan.after.deadline == pytest.approx(NOW + 3 * DAY)  # three days a move, from now
    assert plan.confirm is False and plan.now == NOW


def test_the_checks_raise_before_anything_is_planned():
    pos = _start()
    game = _game(pos)
    move = pos.random_move(random.Random(2))
    service = _service()
    with pytest.raises(NotAllowed):
        service.plan_move(game, 4242, move, settings=_settings(), trees={}, now=NOW)
    with pytest.raises(NotYourTurn):
        service.plan_move(game, BOB, move, settings=_settings(), trees={}, now=NOW)
    with pytest.raises(InvalidMove):
        service.plan_move(game, ANN, "zz99", settings=_settings(), trees={}, now=NOW)
    with pytest.raises(StaleAction):
        service.plan_move(game, ANN, move, settings=_settings(), trees={}, now=NOW,
                          expected_ply=pos.ply + 1)


def test_a_stored_conditional_line_answers_in_the_plan():
    rng = random.Random(3)
    pos = _start()
    ann_move = pos.random_move(rng)
    after = pos.play(ann_move)
    bob_reply = after.random_move(rng)
    tree = conditionals.add_line(conditionals.ConditionalTree(), pos, 2, f"{ann_move}; {bob_reply}")
    plan = _service().plan_move(_game(pos), ANN, ann_move, settings=_settings(),
                                trees={2: tree.to_json()}, now=NOW)
    assert [(r.seat, r.move) for r in plan.replies] == [(2, after.play(bob_reply).last_move)]
    assert plan.final == after.play(bob_reply)
    assert plan.trees == {2: None}  # the only line was used: the row goes
    assert plan.after.conditional_ply == plan.final.ply
    assert plan.ping == ANN  # Ann is to move again after Bob's reply


def test_the_movers_confirmation_setting_is_in_the_plan():
    pos = _start()
    move = pos.random_move(random.Random(4))
    settings = _settings() | {ANN: UserSettings(False, None, 14.0, True)}
    plan = _service().plan_move(_game(pos), ANN, move, now=NOW, trees={}, settings=settings)
    assert plan.confirm is True

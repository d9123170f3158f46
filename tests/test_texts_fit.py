"""Every text fits Discord (issue 18, item 2): each message the bot can send, built with
worst-case inputs, passes the same checker the fake Discord uses (``fakediscord.limits``).

Worst cases: 19-digit ids in every mention and link, game numbers of seven digits, the
longest game title and options, 32-character names, 20 conditional lines of 20 of the longest
steps, a leaderboard with the caller below the ten, the longest review swings, every player
error. Whole lists (/games, /games all with 200 games) are covered where they are assembled
(tests/test_bot_flow.py, through the fake).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from fakediscord import limits

import engine
from bot import texts
from bot.front import views
from bot.manager.values.tournaments import ALL_AT_ONCE
from bot.rules import conditionals
from bot.rules.timecontrol import TimeControl

BIG = 2**63 - 1  # the longest snowflake: 19 digits
GAME_ID = 9_999_999
NAME = "Ꮓ" * 32  # Discord's longest display name
LONG_KIND = max(engine.GAMES, key=lambda k: len(texts.title(k)))
LABEL = texts.game_label(LONG_KIND, GAME_ID)
CLOCK = TimeControl.bank(30, 3, 60)
LONGEST_STEP = "t20 s19"  # a Whirlwind turn of two cells on its largest boards


def fits(content: str | None = None, **payload) -> None:
    """Assert Discord accepts a message with this content (and embeds, components)."""
    if content is not None:
        payload["content"] = content
    limits.check_message(payload)


def game(**kw):
    values = dict(kind=LONG_KIND, id=GAME_ID, players={1: BIG, 2: BIG - 1}, to_move_user=BIG,
                  deadline=4_102_444_800, time_control=CLOCK, ply=9999, channel_for_posts=BIG,
                  thread_id=BIG, channel_id=BIG, guild_id=BIG, status="active", reason=None,
                  ai_seat=1, ai_level=5, label=texts.game_label(LONG_KIND, GAME_ID))
    values.update(kw)
    return SimpleNamespace(**values)


def challenge(**kw):
    values = dict(kind=LONG_KIND, options={"shape": "hexhex", "size": 99, "bonus": "own"},
                  time_control=CLOCK, rated=True, challenger_id=BIG, opponent_id=BIG - 1,
                  first="opponent", expires_at=4_102_444_800, channel_id=BIG)
    values.update(kw)
    return SimpleNamespace(**values)


def test_help_fits_in_a_server_and_in_a_dm():
    for in_dm in (False, True):
        embed = texts.help_embed(in_dm=in_dm)
        fits(embeds=[embed])
        lines = [line for f in embed["fields"] for line in f["value"].split("\n")]
        assert sum(line.startswith("`/") for line in lines) == len(texts.HELP_COMMANDS)


def test_help_fits_when_a_topic_outgrows_a_field(monkeypatch):
    many = [(f"/conditional x{i}", "w" * 300) for i in range(6)]  # 1,800+ characters in one topic
    monkeypatch.setattr(texts.rules, "HELP_COMMANDS", texts.HELP_COMMANDS + many)
    embed = texts.help_embed()
    fits(embeds=[embed])
    assert "Play your moves (continued)" in [f["name"] for f in embed["fields"]]


def test_the_longest_conditional_lines_fit():
    steps = "; ".join([LONGEST_STEP] * conditionals.MAX_STEPS)
    lines = [steps] * conditionals.MAX_LINES
    for text in (texts.conditional_stored(LABEL, lines), texts.conditional_list(LABEL, lines)):
        fits(text)
        assert f"1. `{steps}`" in text  # whole lines, from the first
        shown = sum(1 for line in text.splitlines() if line[:1].isdigit())
        assert f"… and {conditionals.MAX_LINES - shown} more" in text
    assert texts.conditional_list(LABEL, lines).endswith("to see the board at its end.")
    fits(texts.conditional_board(LABEL, conditionals.MAX_LINES, steps))
    chain = [(BIG - i % 2, LONGEST_STEP) for i in range(conditionals.MAX_STEPS)]
    fits(texts.answered_headline(9998, 9999, BIG, LONGEST_STEP, chain, ", capturing 99 stones"))
    fits(texts.move_reply(LABEL, LONGEST_STEP, ", capturing 99 stones", to_move=BIG,
                          replies=chain, you=BIG))


def test_a_few_conditional_lines_are_all_shown():
    lines = ["e5; d4", "c3; f6"]
    text = texts.conditional_list(LABEL, lines)
    assert "1. `e5; d4`\n2. `c3; f6`\n" in text and "more" not in text


def test_lists_fit_with_the_longest_lines():
    g = game()
    lines = [texts.games_list_header(200, 200)] + [
        texts.games_list_line(g, BIG, yours=True, away=True) for _ in range(200)]
    fits(texts.fit_lines(lines, hidden=0, more=texts.GAMES_LIST_MORE))
    lines = [texts.server_games_header(200)] + [texts.server_games_line(g) for _ in range(200)]
    fits(texts.fit_lines(lines, more=texts.SERVER_GAMES_MORE))
    fits(texts.digest_text([(g, BIG, CLOCK.status_text(g.deadline, 0)) for _ in range(200)]))
    fits(texts.next_text(g, BIG, CLOCK.status_text(g.deadline, 0), 200, 200))


def test_a_full_leaderboard_and_profile_fit():
    row = SimpleNamespace(user_id=BIG, short_text="9999?", games=99_999)
    lines = [texts.leaderboard_header(LONG_KIND)]
    lines += [texts.rank_line(rank, row) for rank in range(1, 11)]
    lines += ["…", texts.rank_line(99_999, row) + " ← you", texts.unrated_here(LONG_KIND)]
    fits("\n".join(lines))
    rating = SimpleNamespace(text="9999 ± 999?", games=99_999)
    record = SimpleNamespace(wins=99_999, losses=99_999, draws=99_999)
    computer = [SimpleNamespace(level=lv, wins=99_999, losses=99_999, draws=99_999) for lv in range(1, 6)]
    p = SimpleNamespace(ratings=dict.fromkeys(engine.GAMES, rating), records=dict.fromkeys(engine.GAMES, record),
                        computer=computer, active_games=[game()] * 200)
    fits(texts.profile_text(BIG, p))


def test_the_longest_review_fits():
    swings = [(texts.review_swing(9999, NAME, LONGEST_STEP, 1.0, 0.0), LONGEST_STEP)] * 3
    fits(texts.review_text(LABEL, swings))
    fits(texts.review_progress(LABEL, 1, 2))


def test_challenges_and_game_notes_fit():
    for c in (challenge(), challenge(opponent_id=None)):
        fits(texts.challenge_text(c))
        fits(texts.accepted_text(c, game()))
        fits(texts.declined(c)), fits(texts.withdrawn(c)), fits(texts.rematch_offered(c))
    g = game()
    fits(texts.already_accepted(g))
    for level in texts.LEVEL_DESCRIPTIONS:
        fits(texts.computer_started(LABEL, level, BIG))
    fits(texts.computer_game_sent(g))
    name = texts.thread_name(g, NAME, NAME)
    limits.check_thread_name(name)
    fits(texts.position_changed(g)), fits(texts.position_changed(game(status="finished", reason="r" * 80)))
    fits(texts.confirm_prompt(LABEL, LONGEST_STEP, " " + "e" * 200))
    fits(texts.move_reply(LABEL, LONGEST_STEP, " " + "e" * 200, result="r" * 300))


def test_issue_19_clock_and_suggestion_texts_fit():
    fits(texts.confirm_prompt(LABEL, LONGEST_STEP, " " + "e" * 200)
         + texts.confirm_clock(game().time_control.status_text(4_102_444_800, 0, 4_102_444_800), BIG))
    fits(texts.days_with_clock(14, CLOCK.name)), fits(texts.move_names_another_game(BIG, BIG))
    fits("Due <t:4102444800:R> (bank 30d+3d)." + texts.others_bank(BIG, "59 d 23 h left"))
    for choice in (texts.move_choice(LABEL, LONGEST_STEP), texts.pick_game_choice(25),
                   texts.finished_game_choice(LABEL, "x" * 32, "y" * 32, 9999)):
        assert len(choice) <= 100, choice


def test_every_fixed_sentence_fits():
    sentences = {name: value for name, value in vars(texts).items()
                 if isinstance(value, str) and name.isupper()}
    assert len(sentences) > 20
    for name, value in sentences.items():
        fits(value)  # as a message of its own
        assert len(value) <= 1000, name  # and with room for what is added to it
    for kind in engine.GAMES:
        fits(texts.rules_text(kind))


def tournament(**kw):
    """A tournament with a 32-character name and the largest fields (issue 21)."""
    values = dict(id=GAME_ID, guild_id=BIG, channel_id=BIG, name="Ꮓ" * 32, organiser_id=BIG, kind=LONG_KIND,
                  options={"shape": "hexhex", "size": 99, "bonus": "opponent"}, clock=CLOCK.to_text(),
                  rated=True, format="league", rounds=20, games_per_match=2, division_size=16, promote=7,
                  min_players=256, max_players=256, starts_at=4_102_444_800, status="running",
                  current_round=9999, season=9999, parent_id=BIG, created_at=0.0, entrants=256)
    values.update(kw)
    values["all_at_once"] = values["format"] in ALL_AT_ONCE  # Tournament.all_at_once
    return SimpleNamespace(**values)


def standing(rank: int, tiebreaks=(("buchholz", 999.75), ("median_buchholz", 999.75)), **kw):
    values = dict(rank=rank, user_id=BIG, computer_level=5, rating=9999.0, points=999.5, tiebreaks=tiebreaks,
                  played=9999, left=9999, withdrawn=True, division=99)
    values.update(kw)
    return SimpleNamespace(**values)


def test_tournament_texts_fit_with_the_largest_fields():
    """Every tournament message with a 32-character name, 256 players, the largest numbers: one
    message each, long lists cut with "… and N more" (issue 21)."""
    from bot.manager.values.tournaments import RoundPairing

    for fmt in ("round_robin", "double_round_robin", "swiss", "knockout", "league"):
        t = tournament(format=fmt)
        for status in ("signup", "running", "finished", "cancelled"):
            fits(texts.tournament_list_line(tournament(format=fmt, status=status), CLOCK.name))
        fits(texts.tournament_announcement(t, CLOCK.name))
        fits(texts.tournament_announcement(tournament(format=fmt, starts_at=None), CLOCK.name))
        for text in (texts.tournament_created(t, BIG), texts.tournament_joined(t), texts.tournament_left(t),
                     texts.tournament_computer_added(t, 5), texts.tournament_removed(t, BIG),
                     texts.tournament_cancelled(t), texts.tournament_started(t, 9999),
                     texts.tournament_cancelled_post(t), texts.tournament_withdrawn_post(t, BIG),
                     texts.next_season_note(t), texts.organiser_role_set(BIG)):
            fits(text)
        assert len(texts.standings_title(SimpleNamespace(tournament=t, finished=False))) <= 100
    t = tournament(format="swiss")
    entrants = [SimpleNamespace(user_id=BIG, computer_level=5, seed_rating=9999.0, status="withdrawn")] * 256
    info = texts.tournament_info_text(SimpleNamespace(tournament=t, entrants=entrants), CLOCK.name)
    fits(info)
    assert info.endswith("more.") and "… and " in info
    fits(texts.tournament_list([texts.tournament_list_line(t, CLOCK.name)] * 200))
    # a 256-player Swiss round: 128 boards, each with its game and thread
    pairings = [RoundPairing(GAME_ID, 9999, b, BIG, BIG - 1, GAME_ID, "seat1", True) for b in range(1, 129)]
    for t_round in (t, tournament(format="double_round_robin")):
        text = texts.tournament_round_post(t_round, 9999, pairings, [game()])
        fits(text)
        assert "… and " in text
    # 256-player Swiss standings: as text cut with "… and N more", the final post too
    rows = tuple(standing(rank) for rank in range(1, 257))
    view = SimpleNamespace(tournament=t, rows=rows, finished=True, winners=(BIG, BIG - 1),
                           promoted=(BIG,) * 7, relegated=(BIG,) * 7)
    for text in (texts.standings_text(view), texts.tournament_final_post(view, t)):
        fits(text)
        n = int(text.rsplit("… and ", 1)[1].split()[0])
        assert sum(1 for line in text.splitlines() if line.startswith(tuple("0123456789"))) + n == 256
    assert len(texts.standings_alt(view, 32)) <= texts.ATTACHMENT_DESCRIPTION
    line = SimpleNamespace(pairing=pairings[0], game=game())
    fits(texts.tournament_games_text(t, BIG, [line] * 400))
    w = SimpleNamespace(tournament=t, user_id=BIG, forfeited=(game(),) * 50)
    fits(texts.tournament_withdrew(w))
    label = SimpleNamespace(tournament_id=GAME_ID, name="Ꮓ" * 32, round=9999, season=9999)
    limits.check_thread_name(texts.tournament_thread_name(label, game(), NAME, NAME))


def test_the_buttons_fit():
    for view in (views.challenge_view(BIG), views.challenge_view(BIG, open_challenge=True),
                 views.rematch_view(BIG), views.resign_view(BIG, BIG), views.join_view(BIG)):
        fits(components=view.to_components())


@pytest.mark.parametrize("error", ["conditional", "time control"])
def test_player_errors_fit(error):
    """The errors players cause with the longest input they can type (400 characters)."""
    if error == "conditional":
        line = "; ".join(["zz99 zz98"] * 45)[:400]
        with pytest.raises(conditionals.ConditionalError) as info:
            conditionals.parse_line(line)
    else:
        from bot.rules import timecontrol
        with pytest.raises(timecontrol.TimeControlError) as info:
            timecontrol.parse("x" * 400)
    fits(str(info.value))


def test_the_analysis_board_fits_with_its_longest_parts():
    """Issue 23: the board's text with the longest source, line, note and engine summary; the
    shared post; the position's text for the largest board; the refusals with their values;
    the Play form; the seven buttons."""
    from bot.manager import NOTE_MAX

    line = [(i, LONGEST_STEP) for i in range(1, 17)]  # the search's line is at most 16 moves (ai._follow)
    summary = texts.engine_summary("Player 2", 0.0, line, True, 9999)
    assert len(texts.engine_summary("Player 2", 0.4567, line, False, None)) <= len(summary) + 40
    note = "n" * NOTE_MAX
    fits(texts.analysis_text(LABEL, 9999, 9999, 9999, "Player 2", 4_102_444_800, summary, note))
    fits(texts.share_text(BIG, texts.analysis_source(None, LONG_KIND), 9999, summary))
    fits(texts.note_saved(LABEL, note))
    fits("b" * 1400 + texts.note_line(note))  # /board's text (about 1000 at most) and the note
    largest = max((engine.new_game(k, **o) for k, o in (
        ("whirlwind", {"size": 24}), ("io", {"size": 19}), ("coil", {"size": 12}),
        ("braincoral", {"shape": "limping", "size": 10}),
        ("branchingcoral", {"shape": "limping", "size": 10}))), key=lambda p: len(p.to_text()))
    fits(texts.position_text_reply(largest.to_text()))
    long_error = engine.PositionError("e" * 300)
    for name, values in [("BAD_POSITION_TEXT", {"error": long_error}), ("BAD_POSITION_TEXT", {"error": None}),
                         ("BAD_OPTIONS_TEXT", {"kind": LONG_KIND}), ("BAD_MOVE_NUMBER", {"most": 99999}),
                         ("ANALYSIS_EXPIRED", {"hours": 24.0}), ("ENGINE_LIMIT", {"most": 6, "wait": 61}),
                         ("ENGINE_RUNNING_GAME", {"game": game(), "playing": True}),
                         ("ENGINE_RUNNING_GAME", {"game": game(), "playing": False}),
                         ("NOTE_TOO_LONG", {"length": 2000, "most": NOTE_MAX})]:
        fits(texts.REFUSALS[name](**values))
    assert len(texts.play_modal("title")) <= 45 and len(texts.play_modal("label")) <= 45  # Discord's modal limits
    assert len(texts.play_modal("hint")) <= 100
    fits(components=views.analysis_view(BIG, BIG).to_components())
    assert len(texts.analysis_alt("Branching Coral", 9999, "Player 2", 32)) <= texts.ATTACHMENT_DESCRIPTION

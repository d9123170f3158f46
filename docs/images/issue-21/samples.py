"""The sample standings pictures of issue 21, drawn from real simulated tournaments: the
pure rules (:mod:`bot.rules.tournaments`) pair and rank, results are drawn from a fixed seed
(the stronger player wins with the Elo expectancy of the ratings, a few draws), the words are
the bot's (:mod:`bot.texts`) and the picture is :func:`renderers.standings.render_standings_png`,
as the bot draws it.

* ``standings-swiss-default.png`` / ``-light.png``: an 8-player, 5-round Swiss in round 4
  (two of its four games finished): Buchholz and median Buchholz, games left, no arrows.
* ``standings-league-default.png``: a 3-division league (divisions of 6, 2 up and 2 down) at
  the end of its season, each division under its label: the top division's bottom two go
  down, the middle one's top two up and bottom two down, the bottom one's top two up.
* ``standings-long-title-default.png``: the Swiss under a 32-character name, its title on
  two lines (the round part whole).
* each also at 550 px wide (``-550.png``), as a phone shows it.

    .venv/bin/python docs/images/issue-21/samples.py
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from PIL import Image  # noqa: E402

from bot import texts  # noqa: E402
from bot.rules import tournaments as rules  # noqa: E402
from renderers.standings import StandingsHeader, StandingsRow, render_standings_png  # noqa: E402

DRAW_SHARE = 0.05
LONG_NAME = "GRAND AUTUMN BRAIN CORAL CLASSIC"  # 32 wide characters (the most a name may have)
NAMES = ["Ann", "山田太郎", "Bartholomew Featherstonehaugh-Cholmondeley", "Zoë", "Άριστοτέλης", "김민준",
         texts.computer_name("Stonecast", 3), "Иван Петров"]


def outcome(rng: random.Random, r1: float, r2: float) -> rules.Outcome:
    """Seat 1 wins with the Elo expectancy of ``r1`` over ``r2`` (less the draws)."""
    if rng.random() < DRAW_SHARE:
        return rules.Outcome.DRAW
    return rules.Outcome.SEAT1_WIN if rng.random() < 1 / (1 + 10 ** ((r2 - r1) / 400)) else rules.Outcome.SEAT2_WIN


def tournament(**kw: object) -> SimpleNamespace:
    """What :mod:`bot.texts` reads of a tournament."""
    values: dict[str, object] = dict(format="swiss", rounds=None, games_per_match=1, division_size=8, promote=2,
                                     season=1, status="running", current_round=0)
    values.update(kw)
    values["all_at_once"] = values["format"] in ("round_robin", "double_round_robin", "league")
    return SimpleNamespace(**values)


def table_rows(table: rules.Standings, names: dict[int, str], ratings: dict[int, float], *,
               movement: dict[int, int], division: int | None = None) -> list[StandingsRow]:
    """The rows of ``table`` as the bot draws them (``division``: a league division's, under
    its label)."""
    section = "" if division is None else texts.division_label(division)
    return [StandingsRow(r.rank, names[r.player], str(round(ratings[r.player])), r.points, r.tie_breaks, r.left,
                         movement.get(r.player, 0), section) for r in table.rows]


def draw(rows: list[StandingsRow], table: rules.Standings, *, title: str, name: str, subtitle: str,
         theme: str) -> bytes:
    """The standings picture of ``rows`` in the bot's words."""
    words = texts.STANDINGS_WORDS
    header = StandingsHeader(words["rank"], words["player"], words["rating"], words["points"],
                             tuple(texts.tie_break_word(tb.value) for tb in table.tie_breaks), words["left"])
    return render_standings_png(rows, header, title=title, subtitle=subtitle, theme=theme, title_name=name)


def save(png: bytes, name: str) -> None:
    """``name`` at full size and at 550 px wide."""
    (HERE / name).write_bytes(png)
    image = Image.open(io.BytesIO(png))
    small = image.resize((550, round(image.height * 550 / image.width)), Image.Resampling.LANCZOS)
    small.save(HERE / name.replace(".png", "-550.png"), optimize=True)


def swiss(rng: random.Random) -> None:
    """An 8-player, 5-round Swiss, round 4 under way (two of its games finished)."""
    ratings = {1000 + i: r for i, r in enumerate((1712, 1664, 1618, 1590, 1547, 1511, 1480, 1436))}
    entrants = rules.seed_order([rules.Entrant(p, r) for p, r in ratings.items()])
    names = dict(zip(ratings, NAMES, strict=True))
    games: list[rules.GameRecord] = []
    byes: list[rules.Bye] = []
    for number in range(1, 5):
        paired = rules.pair_swiss(entrants, games, byes, number)
        for k, p in enumerate(paired.pairings):
            done = number < 4 or k < 2
            games.append(rules.GameRecord(number, p.seat1, p.seat2,
                                          outcome(rng, ratings[p.seat1], ratings[p.seat2]) if done else None))
        byes += [rules.Bye(number, b) for b in paired.byes]
    table = rules.standings(rules.TournamentFormat.SWISS, entrants, games, byes)
    for name, themes, stem in (("Coral Club Swiss", ("default", "light"), "standings-swiss"),
                               (LONG_NAME, ("default",), "standings-long-title")):
        t = tournament(name=name, format="swiss", rounds=5, current_round=4)
        view = SimpleNamespace(tournament=t, finished=False)
        rows = table_rows(table, names, ratings, movement={})
        for theme in themes:
            save(draw(rows, table, title=texts.standings_title(view), name=name, subtitle=texts.tournament_format(t),
                      theme=theme), f"{stem}-{theme}.png")


def league(rng: random.Random) -> None:
    """A league of 18 in 3 divisions of 6 (2 up, 2 down), its first season played out; the
    middle division's final standings."""
    ratings = {2000 + i: rng.gauss(1550, 180) for i in range(18)}
    order = [e.player for e in rules.seed_order([rules.Entrant(p, r) for p, r in ratings.items()])]
    league_rules = rules.LeagueRules(6, 2)
    divisions = rules.first_season(order, league_rules)
    finals, tables = [], []
    for players in divisions:
        entrants = [rules.Entrant(p, ratings[p]) for p in players]
        games = [rules.GameRecord(r.number, p.seat1, p.seat2, outcome(rng, ratings[p.seat1], ratings[p.seat2]))
                 for r in rules.round_robin(list(players)) for p in r.pairings]
        table = rules.standings(rules.TournamentFormat.LEAGUE, entrants, games, [])
        finals.append([r.player for r in table.rows])
        tables.append(table)
    change = rules.next_season(finals, rules=league_rules)
    movement = {p: 1 for p in change.promoted} | {p: -1 for p in change.relegated}
    names = dict(zip(order, ["Maya", "Đặng Thị Hoa", "Olúwaṣeun Adébáyọ̀", "Lars", "Priya Raghunathan", "Chen Wei",
                             "Ngozi Ọláṣẹ̀gun", "Sven", "Αλέξανδρος", "Ирина Смирнова", "佐藤花子", "Tomás",
                             "Nguyễn Văn Ẩn", "Jan", "Ama", "Łukasz Wójcik", "이서연", "Kofi"], strict=True))
    t = tournament(name="Coral League", format="league", division_size=6, promote=2, status="finished")
    view = SimpleNamespace(tournament=t, finished=True)
    rows = [row for d, table in enumerate(tables, 1)
            for row in table_rows(table, names, ratings, movement=movement, division=d)]
    save(draw(rows, tables[0], title=texts.standings_title(view), name=t.name, subtitle=texts.tournament_format(t),
              theme="default"), "standings-league-default.png")


def main() -> None:
    rng = random.Random(21)
    swiss(rng)
    league(rng)


if __name__ == "__main__":
    main()

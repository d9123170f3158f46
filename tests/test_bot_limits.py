"""Every command the bot syncs fits Discord's documented limits for application commands.

Discord rejects (or silently cuts) what does not fit; the limits checked are those of
https://discord.com/developers/docs/interactions/application-commands (Application Command
Naming, Application Command Structure, Option Structure, Option Choice Structure).
"""

import re

from fakediscord.fixtures import *  # noqa: F403

NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_DESCRIPTION = 100
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100  # string values
MAX_ITEMS = 25  # options (subcommands included) per level, choices per option
MAX_COMMAND_CHARS = 4000  # names, descriptions and values of the whole command
MAX_CHAT_COMMANDS = 100
OPT_SUB, OPT_GROUP = 1, 2


def limit_problems(command: dict) -> list[str]:
    """What in one synced chat-input command breaks Discord's limits (empty: none)."""
    problems: list[str] = []
    total = 0

    def check_named(item: dict, where: str) -> None:
        nonlocal total
        name, description = item.get("name", ""), item.get("description", "")
        total += len(name) + len(description)
        if not NAME.match(name) or name != name.lower():
            problems.append(f"{where}: name {name!r} is not 1-32 lowercase letters, digits, - or _")
        if not 1 <= len(description) <= MAX_DESCRIPTION:
            problems.append(f"{where}: description has {len(description)} characters: {description!r}")

    def walk(item: dict, where: str) -> None:
        nonlocal total
        check_named(item, where)
        options = item.get("options") or []
        if len(options) > MAX_ITEMS:
            problems.append(f"{where}: {len(options)} options")
        choices = item.get("choices") or []
        if len(choices) > MAX_ITEMS:
            problems.append(f"{where}: {len(choices)} choices")
        for choice in choices:
            name, value = choice["name"], choice["value"]
            total += len(name) + len(str(value))
            if not 1 <= len(name) <= MAX_CHOICE_NAME:
                problems.append(f"{where}: choice name has {len(name)} characters: {name!r}")
            if isinstance(value, str) and not 1 <= len(value) <= MAX_CHOICE_VALUE:
                problems.append(f"{where}: choice value has {len(value)} characters: {value!r}")
        required_seen_optional = False
        for option in options:
            walk(option, f"{where} {option['name']}")
            if option["type"] not in (OPT_SUB, OPT_GROUP):
                if option.get("required") and required_seen_optional:
                    problems.append(f"{where}: required option {option['name']} after an optional one")
                required_seen_optional |= not option.get("required")

    walk(command, "/" + command.get("name", "?"))
    if total > MAX_COMMAND_CHARS:
        problems.append(f"/{command.get('name')}: {total} characters in all (limit {MAX_COMMAND_CHARS})")
    return problems


def test_limit_problems_sees_each_limit():
    good = {"name": "x", "description": "d", "type": 1, "options": [
        {"name": "o", "description": "d", "type": 3, "choices": [{"name": "a", "value": "a"}]}]}
    assert limit_problems(good) == []
    assert limit_problems(good | {"description": "d" * 101})
    assert limit_problems(good | {"name": "Big"})
    assert limit_problems(good | {"name": "two words"})
    assert limit_problems(good | {"options": [{"name": "o", "description": "d", "type": 3,
                                              "choices": [{"name": "n" * 101, "value": "a"}]}]})
    assert limit_problems(good | {"options": [{"name": "o", "description": "d", "type": 3,
                                              "choices": [{"name": "a", "value": "v" * 101}]}]})
    assert limit_problems(good | {"options": [{"name": f"o{i}", "description": "d", "type": 3}
                                              for i in range(26)]})
    assert limit_problems(good | {"options": [{"name": f"o{i}", "description": "d" * 100, "type": 3}
                                              for i in range(25)] * 2})


async def test_every_synced_command_fits_discords_limits(fake, harness):
    commands = fake.guild_commands[fake.guild_id] + fake.global_commands
    assert 0 < len([c for c in commands if c.get("type", 1) == 1]) <= MAX_CHAT_COMMANDS
    problems = [p for c in commands for p in limit_problems(c)]
    assert problems == []


async def test_challenge_subcommands_say_their_game_whole(fake, harness):
    import engine
    subs = {o["name"]: o for o in fake.command("challenge")["options"]}
    for key, kind in engine.GAMES.items():
        description = subs[key]["description"]
        assert description.endswith(kind.summary), description  # not cut mid-word


def test_fitted_takes_the_first_description_that_fits_whole():
    import pytest

    from bot.front.cogs.challenges import fitted
    assert fitted("a" * 101, "short") == "short"
    assert fitted("a" * 100, "short") == "a" * 100
    with pytest.raises(ValueError):
        fitted("a" * 101, "")

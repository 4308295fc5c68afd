"""One ordered story per command (issue 27, items 2-4): every result of a command is one item, in
the order its events happened, each with the board just after it; each item's card says what
the table must do in the players' words, with real plurals, in four languages; encounter results
(fights won and lost, monks, rewards, wounds) are told like the Strigoi's turn."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion.app.story.announce import Announcer, announcements
from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of, spoken, why_rows
from companion.app.words import i18n
from companion.app.words.names import reward_use, room_name, token_meaning, token_name
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.queries import encounter_token, fight_odds
from companion.engine.game.tasks import ProtectTask
from tests.support.random_games import Told, played
from ui.screens.round.board import BoardChoice, board_prompt

RULES = GameRules(load_board_file(), load_catalog())
SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


def stories(games: int = 12) -> Iterator[Told]:
    """(before, command, events, after, story) of every command of random games that told
    something."""
    return (told for told in played(RULES, SEATS, games) if told[4])


TOLD = list(stories())


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def _anchor(events: list[e.Event], item: Announcement) -> int:
    """Where the event that makes `item` happened (its task done, or its own event)."""
    kinds = {
        "strigoi_step": ("strigoi_resolve",),
        "curse": ("curse",),
        "fight": ("fight", "stealth_choice"),
        "monk": ("monk",),
        "wound": ("wounds", "wound_draw"),
        "curse_skipped": ("end_turn", "curse"),
        "protect": ("protect",),
    }.get(item.kind)
    own = {
        "collapse": e.PlatformCollapsed,
        "reward": e.RewardTaken,
        "round": e.RoundEnded,
        "order": e.CardsRevealed,
        "encounter": e.TokenDrawn,
        "rotate": e.PlatformRotated,
        "strigoi_placed": e.StrigoiPlaced,  # after the new round's line (R-SET-3)
    }
    for i, x in enumerate(events):
        if item.kind in own and isinstance(x, own[item.kind]):
            return i
        if item.kind == "turn" and isinstance(x, e.PhaseChanged) and x.active:
            return i
        if kinds is not None and isinstance(x, e.TaskDone) and x.kind in kinds:
            return i
        if item.kind == "collapse" and isinstance(x, e.PlatformCollapsed):
            return i
        if item.kind == "reward" and isinstance(x, e.RewardTaken):
            return i
    raise AssertionError(item.kind)


def test_a_story_follows_the_order_of_its_events_and_each_item_its_own_board() -> None:
    seen_step_then_curse = 0
    for _before, _command, events, after, story in TOLD:
        kinds = [a.kind for a in story]
        # the same kind twice (two wounds) each has its own anchor further on: compare the first
        firsts = [_anchor(events, a) for a in story if kinds.count(a.kind) == 1]
        assert firsts == sorted(firsts), kinds
        for item in story:
            assert item.board is not None
        assert story[-1].board == after  # the last item's board: the game after the command
        for item in story:
            if item.kind in ("strigoi_step", "curse"):
                to = item.facts["to"]
                assert (
                    item.board is not None and item.board.strigoi[str(item.facts["strigoi"])] == to
                )
        if kinds[:2] == ["strigoi_step", "curse"]:
            seen_step_then_curse += 1
            step, curse = story[0], story[1]
            # the step's board shows the Strigoi where the step put it, before the curse moved it
            assert step.board is not None and curse.board is not None
            assert step.board.strigoi[str(step.facts["strigoi"])] == step.facts["to"]
            assert curse.facts["from"] == step.board.strigoi[str(curse.facts["strigoi"])]
    assert seen_step_then_curse, "no command made a step and a curse"


def test_a_curse_card_names_the_room_each_hero_hit_or_nobody_and_the_wounds() -> None:
    curses = [a for *_, story in TOLD for a in story if a.kind == "curse"]
    assert any(a.facts["heroes"] for a in curses) and any(not a.facts["heroes"] for a in curses)
    for curse in curses:
        card = card_of(RULES.catalog, curse)
        room = room_name(str(curse.facts["room"]))
        # the curse with its move (issue 40), led by the letter that moved it (R-CUR-1)
        assert card.headline.startswith(f"Curse, book {curse.facts['letter']}: ")
        assert card.headline.endswith(f"teleports to the {room} and curses it.")
        assert card.words.startswith(card.headline)
        heroes = [str(h) for h in curse.facts["heroes"]]  # type: ignore[attr-defined]
        [figure] = card.figures  # one large sentence: who takes a wound
        if heroes:
            # cursed, not yet wounded: Protection is asked before a wound is drawn (issue 40)
            assert figure.value.endswith(
                "is cursed: 1 wound." if len(heroes) == 1 else "are cursed: 1 wound each."
            )
            for hero in heroes:
                assert hero_name(hero) in card.words and hero_name(hero) in figure.value
            asked = [h for h in heroes if h in curse.facts["asked"]]  # type: ignore[operator]
            told = [x for x in card.todo if "may" in x and "block it with Protection" in x]
            assert bool(told) == bool(asked)
            assert all(hero_name(h) in told[0] for h in asked)
        else:
            assert figure.value == "Nobody is in the cursed room."
            assert figure.value in card.words
        assert card.done == "Figures moved"
        assert "every hero there" not in card.words


@pytest.mark.rule("R-RND-4")
def test_a_skipped_phase_3_gets_a_short_card_with_its_reason() -> None:
    skipped = [
        (before, a)
        for before, _c, _e, _a, story in TOLD
        for a in story
        if a.kind == "curse_skipped"
    ]
    whys = {a.facts["why"] for _, a in skipped}
    assert {"attacked", "no_strigoi"} <= whys
    for _before, item in skipped:
        card = card_of(RULES.catalog, item)
        # why, in the headline's one short clause (issue 40)
        assert "no curse" in card.headline.casefold() and card.done == "Done"
        if item.facts["why"] == "attacked":
            assert card.headline == "No curse this round: a Strigoi attacked."
            assert card.todo == ("Take the attack marker off the Master card.",)
            assert card.words.startswith(card.headline)
        elif item.facts["why"] == "no_strigoi":  # round 1: what is true (R-SET-3)
            assert "come onto the board at the start of round 2" in card.words


def test_the_strigoi_card_shows_target_wounds_token_and_whose_letter() -> None:
    steps = [a for *_, story in TOLD for a in story if a.kind == "strigoi_step"]
    attacks = [a for a in steps if a.facts["hero"]]
    assert attacks and any(not a.facts["hero"] for a in steps)
    for step in steps:
        card = card_of(RULES.catalog, step)
        moved = step.facts["from"] != step.facts["to"]
        assert card.done == ("Figures moved" if moved else "Done")  # what really happened
        letter, owner = step.facts["letter"], step.facts["card_hero"]
        assert f"{hero_name(str(owner))}'s card shows letter {letter}." in card.source
        if step.facts["hero"]:
            wounds = int(step.facts["wounds"])  # type: ignore[call-overload]
            counted = "wound" if wounds == 1 else "wounds"
            hero = hero_name(str(step.facts["hero"]))
            if step.facts["hero"] in step.facts["asked"]:  # type: ignore[operator]
                # Protection is asked before the wounds are told as taken (issue 40)
                assert card.figures[0].value.endswith(
                    f"attacks {hero}: {wounds} {counted}, unless blocked."
                )
                assert f"{hero} may block with Protection: the app asks next." in card.todo
                assert "takes" not in card.words
            else:
                assert card.figures[0].value == (
                    f"{hero} is attacked and takes {wounds} {counted}."
                )
        else:  # why nothing more happens, in the headline's clause (issue 40)
            assert card.figures[0].value == "Nobody is attacked."
            if moved:
                assert card.headline.endswith("and sees no hero.")
        # the actor of the drawn token leads, with its book (issue 40)
        token = step.facts["token"]
        lead = token_name(RULES.catalog, str(token)) if token else "Supreme Strigoi"
        assert card.headline.startswith(f"{lead}, ")
        assert card.words.startswith(card.headline)
        for sentence, rule in why_rows(RULES.catalog, step):
            assert not re.search(r"R-[A-Z]+-\d", sentence)  # rule ids apart, at the end
            assert rule.startswith("R-")


def test_encounter_results_come_as_cards_with_what_changes_on_the_table() -> None:
    fights = [
        (before, command, a)
        for before, command, _e, _a, story in TOLD
        for a in story
        if a.kind == "fight"
    ]
    assert any(a.facts["won"] for *_, a in fights) and any(not a.facts["won"] for *_, a in fights)
    for before, command, fight in fights:
        assert isinstance(command, c.Fight)
        mine, theirs = fight_odds(RULES, before, command)
        monster = encounter_token(RULES, str(fight.facts["stack"]), str(fight.facts["token"]))  # type: ignore[arg-type]
        assert theirs == monster.strength
        assert fight.facts["won"] == (mine >= theirs)  # R-ENC-1
        card = card_of(RULES.catalog, fight, RULES.fortress)
        assert card.figures[0].value.endswith(f"strength {mine}; the monster has {theirs}.")
        if fight.facts["won"]:
            assert card.headline.endswith("wins the fight.")
            blood = int(fight.facts["blood"])  # type: ignore[call-overload]
            if blood:
                assert any("to the Altar" in line for line in card.todo)
            for _ in fight.facts["rewards"]:  # type: ignore[attr-defined]
                assert any(" takes " in line for line in card.todo)
        else:
            assert card.headline.endswith("loses the fight.")
            assert "1 wound" in card.words
            hero = hero_name(str(fight.facts["hero"]))
            asks = f"{hero} may block with Protection: the app asks next."
            if fight.facts["hero"] in fight.facts["asked"]:  # type: ignore[operator]
                # asked before the wound is told as taken (issue 40)
                assert card.figures[1].value == "The monster deals 1 wound, unless blocked."
                assert asks in card.todo
            else:
                assert card.figures[1].value == f"{hero} takes 1 wound."
                assert asks not in card.todo
        if fight.facts["marker"]:  # on the hero's own space (R-ENC-4)
            hero = hero_name(str(fight.facts["hero"]))
            assert any(f"fight marker on {hero}'s space" in line for line in card.todo)
    monks = [a for *_, story in TOLD for a in story if a.kind == "monk"]
    assert monks
    for monk in monks:
        card = card_of(RULES.catalog, monk, RULES.fortress)
        if monk.facts["freed"]:
            assert "frees the monk" in card.headline
            assert any("discard pile back" in line for line in card.todo)
        else:
            assert "attacks the monk" in card.headline
            assert any("grey monster" in line for line in card.todo)
    wounds = [a for *_, story in TOLD for a in story if a.kind == "wound"]
    assert wounds
    for wound in wounds:
        card = card_of(RULES.catalog, wound)
        count = len(wound.facts["tokens"])  # type: ignore[arg-type]
        said = f"takes {count} wound{'s' if count != 1 else ''}"
        if wound.facts["defeated"] and int(str(wound.facts["due"])) > count:  # R-WND-2: capped
            assert card.headline.endswith(f"{said}: a hero holds at most 3."), card.headline
        else:
            assert card.headline.endswith(f"{said}."), card.headline
        assert len([x for x in card.todo if x.startswith("Give ")]) == count


def test_a_reward_drawn_by_hand_is_its_own_card() -> None:
    """A physical reward draw (entered by the table) is told as a reward card."""
    before = TOLD[0][0]
    drawn = before.stacks["reward_card"].draw[0]
    events: list[e.Event] = [
        e.TokenDrawn(stack="reward_card", token=drawn),
        e.RewardTaken(hero="roel", stack="reward_card", item=drawn),
    ]
    [item] = announcements(RULES, before, events)
    card = card_of(RULES.catalog, item)
    title = RULES.catalog.reward_card(drawn).title  # type: ignore[union-attr]
    assert item.kind == "reward" and card.title == "Reward"
    assert card.todo == (f"Roel takes {title}.",) and card.words == f"Roel takes {title}."


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_every_card_is_in_the_players_language_with_real_plurals(language: str) -> None:
    i18n.set_language(language)
    for *_, story in TOLD[:400]:
        for item in story:
            card = card_of(RULES.catalog, item, RULES.fortress)
            texts = [card.headline, card.words, card.source, card.done, *card.todo, *card.why]
            texts += [f.value for f in card.figures] + [f.caption for f in card.figures]
            texts += [sentence for sentence, _ in why_rows(RULES.catalog, item)]
            for text in texts:
                assert "(s)" not in text, (language, text)
                assert not re.search(r"\b(?:NE|NW|SE|SW)\b|\b[a-z]+-\d+\b", text), text
            if language != "en":  # translated, not the English words
                assert card.done not in ("Done", "Figures moved"), (language, card.done)


def test_french_counts_zero_in_the_singular() -> None:
    one, many = "{hero} has {count} wound.", "{hero} has {count} wounds."
    i18n.set_language("fr")
    assert i18n.ngettext(one, many, 0).format(hero="Roel", count=0) == "Roel a 0 blessure."
    assert i18n.ngettext(one, many, 2).format(hero="Roel", count=2) == "Roel a 2 blessures."
    i18n.set_language("de")
    assert i18n.ngettext(one, many, 0).format(hero="Roel", count=0) == "Roel hat 0 Verletzungen."


def test_the_voice_says_each_card_s_words_in_order() -> None:
    """One spoken sentence per story item, in order, each the words its card banners."""
    before, command, events, _after, story = next(t for t in TOLD if len(t[4]) >= 2)
    said: list[str] = []
    banners: list[str] = []
    announcer = Announcer(
        banner=lambda made, words: banners.append(words),
        speak=said.append,
        led=lambda cue: None,
        publish=lambda payload: None,
        translate=i18n.tr,
        say=lambda a: spoken(RULES.catalog, a, RULES.fortress),
    )
    made = announcer.after_command(RULES, before, events, command)
    assert [a.kind for a in made] == [a.kind for a in story]
    assert said == banners == [card_of(RULES.catalog, a, RULES.fortress).words for a in made]


@pytest.mark.rule("R-LOS-2", "R-ABL Protection")
def test_protection_is_asked_before_a_wound_is_told_as_taken() -> None:
    """Issue 40: "Matthew takes 1 wound." came before "Matthew may protect". A hero the story
    says may block is one the game will ask (a Protection task waits for them), and no wound
    item for them follows in that story; a hero it does not ask takes the wounds in it."""
    asked_seen = taken_seen = 0
    for _before, _command, events, after, story in TOLD:
        if any(isinstance(x, e.GameOver) for x in events):
            continue  # the blood lost ended the game: nothing more is asked or drawn
        for i, item in enumerate(story):
            if item.kind not in ("strigoi_step", "fight", "curse"):
                continue
            asked = [str(h) for h in item.facts["asked"]]  # type: ignore[attr-defined]
            hit = item.facts.get("heroes") or [item.facts.get("hero")]
            if item.kind == "fight" and item.facts["won"]:
                hit = []
            later = [str(x.facts["hero"]) for x in story[i + 1 :] if x.kind == "wound"]
            if asked:
                asked_seen += 1
                waiting = [t.hero for t in after.tasks if isinstance(t, ProtectTask)]
                assert set(asked) <= set(waiting), (item, after.tasks)
                assert not set(asked) & set(later)
            for hero in hit:  # type: ignore[union-attr]
                if isinstance(hero, str) and hero not in asked and item.kind != "curse":
                    taken_seen += 1
                    assert hero in later, (item, later)
    assert asked_seen and taken_seen


def test_a_block_with_protection_is_confirmed_with_what_still_hits() -> None:
    blocks = [a for *_, story in TOLD for a in story if a.kind == "protect"]
    assert blocks
    for block in blocks:
        card = card_of(RULES.catalog, block)
        hero = hero_name(str(block.facts["hero"]))
        blocked, left = int(str(block.facts["blocked"])), int(str(block.facts["left"]))
        assert card.words.startswith(
            f"{hero} blocks {blocked} wound{'s' if blocked != 1 else ''} with Protection."
        )
        if left:
            assert card.words.endswith(
                f"{left} wound{' still hits' if left == 1 else 's still hit'}."
            )
        else:
            assert card.words.endswith(f"{hero} takes no wound.")


@pytest.mark.rule("R-TEL-1", "R-LOS-2")
def test_a_strigoi_token_is_named_by_what_it_does() -> None:
    """ "Master token +1" said what it is, not what it does: the bonus adds wounds to the
    attack (R-LOS-2: wounds = card damage + token bonus); every step's card says it."""
    for token in RULES.catalog.strigoi_tokens:
        meaning = token_meaning(RULES.catalog, token.id)
        if token.bonus:
            extra = f"{token.bonus} extra wound{'s' if token.bonus != 1 else ''}."
            assert meaning.startswith(f"+{token.bonus}: the ") and meaning.endswith(extra)
        else:
            assert meaning.endswith("moves, with no extra wound.")
    steps = [
        a for *_, story in TOLD for a in story if a.kind == "strigoi_step" and a.facts["token"]
    ]
    assert steps
    for step in steps:
        card = card_of(RULES.catalog, step)
        assert token_meaning(RULES.catalog, str(step.facts["token"])) in card.source


def test_an_optional_ability_on_the_board_is_asked_as_an_option() -> None:
    """ "Matthew leaps: tap a space." read as an order; Leap and Pack may be left unused."""
    choice = BoardChoice()
    for mode, name, other in (("leap", "Leap", "go on"), ("pack", "Pack", "go on"),
                              ("escape", "Leap", "fall")):  # fmt: skip
        choice.mode = (mode, "")
        choice.modes = {(mode, ""): {(0, 0): c.Move(hero="matthew", to=(0, 0))}}
        for zoomed in (False, True):
            prompt = board_prompt(choice, zoomed=zoomed)
            assert prompt is not None and prompt.startswith(f"{name}, Matthew? Tap a ")
            assert f", or {other}" in prompt, prompt


@pytest.mark.rule("R-REW-2")
def test_a_reward_token_taken_says_what_it_does() -> None:
    """ "Attila takes token +1." did not say what +1 does: its strength counts in a fight."""
    for token in RULES.catalog.reward_tokens:
        use = reward_use(RULES.catalog, token.id)
        if token.strength:
            assert f"adds {token.strength} to strength in a fight" in use, use
        for ability in token.abilities:
            assert ability.capitalize() in use, use
    told = [
        (a, x)
        for *_, story in TOLD
        for a in story
        if a.kind in ("fight", "monk", "reward")
        for x in a.facts["rewards"]  # type: ignore[attr-defined]
        if RULES.catalog.reward_token(str(x)) is not None
    ]
    assert told
    for item, token in told:
        card = card_of(RULES.catalog, item, RULES.fortress)
        assert any(line.endswith(reward_use(RULES.catalog, str(token))) for line in card.todo)

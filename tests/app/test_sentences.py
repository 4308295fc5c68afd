"""Whole sentences (issue 29, item 1): every sentence a player sees or hears is one message per
language with named placeholders. Rendered with the values of real games, in four languages:
status lines, the board's prompts, cards and banners, Why?, the phone view's cards, the voice
of the table without a screen and the game-over screen start with a capital; a status line is
one sentence, never a phrase glued into another message; no rule id in a Why? sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of, spoken, why_rows
from companion.app.story.spoken_menu import by_room, choose_in_secret, items
from companion.app.web.seat_guide import ONE_PLAYER
from companion.app.web.views import announcement_view, why_line
from companion.app.words import i18n
from companion.app.words.i18n import LOCALE_DIR
from companion.app.words.names import item_name
from companion.app.words.status import GAME_OVER_SENTENCES, defeated_times, game_over_reason
from companion.app.words.status import waiting_label as status_line
from companion.app.words.table_texts import site_label
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import started_state
from companion.engine.game.flow import decide
from companion.engine.game.kinds import TaskKind
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
from tests.support.random_games import played
from ui.screens.round.board import MODE_PROMPTS, BoardChoice, board_prompt

RULES = GameRules(load_board_file(), load_catalog())
SEATS = [("roel", "L1"), ("falk_maria", "L2"), ("matthew", "L3"), ("attila", "L4")]
LANGUAGES = sorted(i18n.LANGUAGES)
RULE_ID = re.compile(r"\bR-[A-Z]{3}\b")


def _games(games: int = 8) -> Iterator[tuple[GameState, list[Announcement]]]:
    """Every state of random games (four heroes), with the story of the command that made it."""
    for _before, command, _events, after, story in played(RULES, SEATS, games):
        COMMANDS.append(command)
        yield after, story


#: every command of the games, in order (what Undo and Redo name)
COMMANDS: list[c.Command] = []
PLAYED = list(_games())
#: one real task of each kind met in the games (the first of each, waiting or queued)
TASKS: dict[TaskKind, Task] = {}
for _state, _ in PLAYED:
    for _task in _state.tasks:
        TASKS.setdefault(_task.kind, _task)
STORIES = [item for _, story in PLAYED for item in story][:600]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def capital(text: str) -> bool:
    """The first letter is a capital (a digit or a name's capital also starts a sentence)."""
    first = next((ch for ch in text if ch.isalnum()), "")
    return not first.isalpha() or first.isupper()


def glued_patterns(language: str) -> list[re.Pattern[str]]:
    """Each translated message made of fixed words around a placeholder that would take a
    whole phrase ("Wartet auf: {what}", "{what}: tippt auf…"), as a pattern: a status line
    matching one is a phrase glued into another message."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "armata.po"
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    found = []
    for message in catalog:
        string = message.string or message.id  # English: the source is the text
        strings = string if isinstance(string, tuple) else (string,)
        for text in strings:
            if not text or not re.search(r"\{(?:what|choice|hit|step)\}", text):
                continue
            parts = re.split(r"\{[a-z_]+\}", text.replace(" :", "\u00a0:"))
            if sum(len(p.strip()) for p in parts) < 4:
                continue  # "{hero}: {what}" and the like: a label, not a sentence
            pattern = ".+".join(re.escape(p.replace("\u00a0", " ")) for p in parts)
            found.append(re.compile(f"^{pattern}$"))
    return found


def test_the_games_meet_most_kinds_of_task() -> None:
    assert len(TASKS) >= 12, sorted(TASKS)  # the checks below are made on real tasks
    assert len(STORIES) >= 200


def test_status_lines_are_whole_sentences_in_each_language(language: str) -> None:
    """The touchscreen, the phones and the voice say what the game waits for in one sentence:
    it starts with a capital and ends with a full stop, starts with no fragment before a comma
    ("Falk Maria, sich zu bewegen"), and is not another message with a phrase glued in."""
    glued = glued_patterns(language)
    assert glued  # the check below has patterns to compare with
    lines = [status_line(task, RULES.catalog) for task in TASKS.values()]
    lines.append(status_line(None, RULES.catalog))
    for line in lines:
        plain = line.replace("\u00a0", " ")
        assert capital(line) and plain.rstrip().endswith("."), (language, line)
        assert not re.match(r"^\S+(?: \S+)?, ", plain), (language, line)  # "Falk Maria, zu tun"
        assert "{" not in line and "(s)" not in line, (language, line)
        assert not any(p.match(plain) for p in glued), (language, line)
    if language != "en":
        assert not any(line.startswith("Waiting for") for line in lines), lines


def test_the_board_prompt_names_the_hero_whose_spaces_it_offers(language: str) -> None:
    """Not the task's words: the task may be the Strigoi token while a hero may still Pack."""
    choice = BoardChoice()
    for mode in MODE_PROMPTS:
        choice.mode = (mode, "")
        choice.modes = {(mode, ""): {(0, 0): c.Move(hero="falk_maria", to=(0, 0))}}
        prompt = board_prompt(choice)
        assert prompt is not None and "Falk Maria" in prompt, (language, prompt)
        assert capital(prompt) and prompt.rstrip().endswith("."), prompt
        # zoomed in, the rings of a mode the game's sentence does not name are told too (the
        # play-test: "Waiting for Attila to use an ability or go on." over Pack's rings)
        zoomed = board_prompt(choice, zoomed=True)
        if mode == "move":
            assert zoomed is None  # "Waiting for Falk Maria to move." says it
        else:
            assert zoomed is not None and "Falk Maria" in zoomed, (language, zoomed)
            assert capital(zoomed) and zoomed.rstrip().endswith("."), zoomed
            assert zoomed != prompt, zoomed  # no "tap a room to zoom in" while zoomed


def test_banners_cards_and_why_start_with_a_capital_and_name_no_rule(language: str) -> None:
    for item in STORIES:
        said = spoken(RULES.catalog, item, RULES.fortress)
        assert said and capital(said), (language, item.kind, said)
        for sentence, _rule in why_rows(RULES.catalog, item):
            assert capital(sentence) and not RULE_ID.search(sentence), (language, sentence)
        view = announcement_view(item, RULES.catalog)
        for line in view["lines"]:
            assert capital(line), (language, item.kind, line)
        for why in view["why"]:
            assert capital(why["text"]) and not RULE_ID.search(why["text"]), (language, why)


def test_the_phone_views_why_opens_each_rule_apart_from_its_sentence(language: str) -> None:
    ruled = [
        why
        for item in STORIES[:100]
        for why in announcement_view(item, RULES.catalog)["why"]
        if why["rule"]
    ]
    assert ruled  # the rule's own text, shown when the line is tapped
    assert all(not RULE_ID.search(why["rule"]) or len(why["rule"]) > 20 for why in ruled)


def test_game_over_and_its_summary_read_as_sentences(language: str) -> None:
    for reason in GAME_OVER_SENTENCES:
        text = game_over_reason(reason)
        assert capital(text) and text.endswith("."), (language, text)
        if language != "en":
            assert text != reason[:1].upper() + reason[1:] + ".", (language, text)
    never = defeated_times(0)
    assert "0" not in never and never, (language, never)  # not "0-mal besiegt"
    assert "2" in defeated_times(2)


def test_the_voice_of_a_table_without_a_screen_names_no_secret_card(language: str) -> None:
    """R-RND-1: only who chooses is said; a long list of spaces is one sentence, by room."""
    state = started_state(new_game(RULES, 3, SEATS))
    commands = legal_commands(RULES, state)
    assert not items(commands)  # no card choice is read out
    said = choose_in_secret("roel")
    assert said.startswith("Roel") and capital(said)
    cards = {item_name(RULES.catalog, card) for h in state.heroes for card in h.hand}
    assert not any(card in said for card in cards)
    while state.phase != "turns":
        state = decide(RULES, state, legal_commands(RULES, state)[0])[1]
    moves = legal_commands(RULES, state)
    grouped = items(moves)
    assert len(grouped) < len(moves)
    group = next(x for x in grouped if not isinstance(x, c.Command))
    assert str(len(group.commands)) in group.words and capital(group.words)
    rooms = by_room(group, RULES.fortress)
    assert all(capital(x.words) for x in rooms if not isinstance(x, c.Command))


def test_the_setup_wizards_ladder_sides_start_with_a_capital(language: str) -> None:
    labels = [site_label(room, side) for room in RULES.fortress.rooms for side in range(6)]
    assert all(capital(label) and "{" not in label for label in labels), (language, labels)


def test_the_table_differs_strip_is_whole_sentences(language: str) -> None:
    """The first difference is its own sentence (not glued after "The table differs:"), then
    how many more, counted, and what to do."""
    from companion.app.table.differences import Difference, Kind
    from companion.app.words.table_texts import differences_alert
    from firmware_bridge.tags import RIM_READER

    one = Difference("NE", RIM_READER, Kind.NO_PLATFORM, None, "NE")
    alone = differences_alert(RULES.fortress, [one])
    three = differences_alert(RULES.fortress, [one, one, one])
    for text in (alone, three):
        assert capital(text) and text.endswith("."), (language, text)
        assert "(+" not in text and "{" not in text, text
    assert "2" in three and len(three) > len(alone)
    assert differences_alert(RULES.fortress, []) == ""


def test_a_ladder_site_refused_is_one_sentence(language: str) -> None:
    from companion.app.words.table_texts import SITE_REFUSALS, site_refusal

    for reason in SITE_REFUSALS:
        text = site_refusal("NE", 2, reason, "roel")
        assert capital(text) and text.endswith(".") and "{" not in text, (language, text)
        assert "NE" not in text.split(), text


def test_the_round_line_is_one_message_per_phase(language: str) -> None:
    from companion.app.words.names import ROUND_LINES, round_line

    lines = {round_line(3, phase) for phase in ROUND_LINES}
    assert len(lines) == len(ROUND_LINES)  # each phase its own words
    assert all(capital(x) and "3" in x and "{" not in x for x in lines), (language, lines)


def test_protection_names_what_blocks(language: str) -> None:
    """Not "block with the chosen" nor "block with card": the played card's icon in words."""
    from companion.app.words.command_labels import command_label

    label = command_label(c.Protect(hero="roel", sources=["card"]), RULES.catalog)
    assert label.startswith("Roel") and label.split()[-1] != "card", (language, label)
    assert i18n.tr("the played card's Protection") in label


# ----- issue 29: every word right in four languages -------------------------------------------
#: a sentence's end; a card's lines and the voice say whole sentences
ENDS = (".", "!", "?")
#: each language's Strigoi as printed, and what may stand before them (an article, or a
#: preposition merged with one): "Lehrling bleibt…" is wrong, "Der Lehrling bleibt…" right
ARTICLES = {
    "de": (("Meister", "Lehrling", "Oberste"), r"(?:[Dd]er|[Dd]en|[Dd]em|[Dd]es)"),
    "it": (
        ("Maestro", "Apprendista", "Strigoi Supremo"),
        r"(?:[Ii]l|[Ll]o|[Ll]'|[Dd]el|[Dd]ello|[Dd]ell'|[Aa]l|[Aa]llo|[Aa]ll'|[Dd]al|[Dd]allo|"
        r"[Dd]all'|[Nn]el|[Nn]ello|[Nn]ell')",
    ),
    "fr": (
        ("Maître", "Apprenti", "Strigoï Suprême"),
        r"(?:[Ll]e|[Ll]'|[Dd]u|[Dd]e l'|[Aa]u|[Àà] l')",
    ),
    "en": (("Master", "Apprentice", "Supreme Strigoi"), r"(?:[Tt]he)"),
}


def sentences(text: str) -> list[str]:
    """A text cut into its sentences (at ". " and the like)."""
    return [x for x in re.split(r"(?<=[.!?])\s+", text.strip()) if x]


def test_every_cards_headline_and_large_lines_are_whole_sentences(language: str) -> None:
    """The headline (large) and the large lines under it are whole sentences: never a big
    "niemand" over a small "angegriffen", never "Master -> room"; the small lines too."""
    for item in STORIES:
        card = card_of(RULES.catalog, item, RULES.fortress)
        big = [card.headline, *(f.value for f in card.figures)]
        for line in big:
            assert capital(line) and line.endswith(ENDS), (language, item.kind, line)
            assert len(line.split()) >= 3, (language, item.kind, line)  # not a word alone
        for f in card.figures:
            assert not f.caption or f.caption.endswith(ENDS), (language, f)
        for line in (card.source, *card.todo, *card.why):
            assert not line or (capital(line) and line.endswith(ENDS)), (language, line)


def test_a_strigoi_in_a_sentence_has_its_article(language: str) -> None:
    """R-CMP-3: the Strigoi as each rulebook names them, with their article ("Der Lehrling
    bleibt im Raum Nordwest.", "L'Apprendista…", "Le Maître…"), on the card, in the voice's
    words, in Why? and on the phone."""
    names, article = ARTICLES[language]
    name = re.compile(rf"\b(?:{'|'.join(names)})\b")
    before = re.compile(rf"\b{article}\s?$")

    def bare(text: str) -> bool:
        return any(not before.search(text[: m.start()]) for m in name.finditer(text))

    checked = 0
    for item in STORIES:
        if item.kind not in ("strigoi_step", "curse"):
            continue
        card = card_of(RULES.catalog, item, RULES.fortress)
        view = announcement_view(item, RULES.catalog)
        for text in (card.headline, card.words, *card.todo, *card.why, *view["lines"]):
            # a token's printed name ("Master token +1, book B", "Jeton Maître +1, livre B")
            text = re.sub(r"\b\S+(?:marker| token)\b", "", text)
            text = re.sub(r"\b(?:Marker|segnalino|jeton|token)\s+\S+", "", text, flags=re.I)
            assert not bare(text), (language, text)
            checked += 1
    assert checked > 50


def test_no_line_leans_on_one_not_said_before_it(language: str) -> None:
    """The voice and the phone say why a Strigoi stays without a "too" that refers to a
    sentence left behind Why? ("the opposite direction fails too")."""
    bounced = [
        item
        for item in STORIES
        if item.kind == "strigoi_step"
        and any(r.code.startswith("bounce_failed") for r in item.reasons)
    ]
    assert bounced
    for item in bounced:
        words = spoken(RULES.catalog, item, RULES.fortress)
        lines = announcement_view(item, RULES.catalog)["lines"]
        for text in (words, *lines):
            assert not re.search(r"\b(too|auch|anche|aussi)\b", text, re.I), (language, text)


def test_a_failed_bounce_names_both_directions(language: str) -> None:
    """R-TEL-3: "Neither that direction nor the opposite one leads to a platform" never said
    which way; the voice and the phone name both ("neither north-east nor south-west")."""
    from companion.app.words.names import direction_name

    bounced = [
        (item, reason)
        for item in STORIES
        for reason in item.reasons
        if item.kind == "strigoi_step" and reason.code.startswith("bounce_failed")
    ]
    assert bounced
    for item, reason in bounced:
        first, back = reason.facts["direction"], reason.facts["opposite"]
        assert isinstance(first, int) and isinstance(back, int)
        assert (first + 3) % 6 == back % 6
        words = spoken(RULES.catalog, item, RULES.fortress)
        for text in (words, *announcement_view(item, RULES.catalog)["lines"]):
            if "{" in text:
                raise AssertionError((language, text))
        for name in (direction_name(first), direction_name(back)):
            assert name in words, (language, name, words)


#: the word "curse" as each language says it in a skipped curse's words
CURSE_WORDS = {"en": "curse", "de": "fluch", "it": "maledizion", "fr": "malédiction"}


def test_a_skipped_curse_says_no_curse_once(language: str) -> None:
    """R-RND-4: "There is no curse this round. A Strigoi attacked this round, so there is no
    curse." said it twice; the headline says it, the reason only says why."""
    skipped = [item for item in STORIES if item.kind == "curse_skipped"]
    whys = {item.facts.get("why") for item in skipped}
    assert {"attacked", "no_strigoi", "stayed"} <= whys
    for item in skipped:
        words = spoken(RULES.catalog, item, RULES.fortress)
        assert words.casefold().count(CURSE_WORDS[language]) == 1, (language, words)
        for said in sentences(words):
            assert capital(said) and said.endswith(ENDS), (language, said)


def test_wound_effects_are_said_one_sentence_each_with_real_plurals(language: str) -> None:
    """R-WND-1: "Roel takes 2 wounds. Shock: Roel discards 1 card…" — never the token names
    glued behind a colon ("takes 2 wounds: wound: no Stealth, shock")."""
    from companion.app.story.hero_cards import wound_effects

    wounds = [item for item in STORIES if item.kind == "wound"]
    assert wounds
    for item in wounds:
        tokens = [str(t) for t in item.facts["tokens"]]  # type: ignore[union-attr]
        effects = wound_effects(RULES.catalog, hero_name(str(item.facts["hero"])), tokens)
        said = sentences(spoken(RULES.catalog, item, RULES.fortress))
        assert len(said) == 1 + len(effects) + bool(item.facts.get("defeated")), (language, said)
        for sentence in said:
            assert capital(sentence) and sentence.endswith(ENDS), (language, sentence)
    shocks = ["wound-shock-1", "wound-shock-2"]
    one, two = (wound_effects(RULES.catalog, "Roel", shocks[:n])[0] for n in (1, 2))
    assert "1" in one and "2" in two and one.replace("1", "2") != two, (language, one, two)


def test_a_drawn_double_wound_is_told_as_the_token_that_weighs_two(language: str) -> None:
    """R-WND-1: "Attila takes 1 wound. The double wound counts as 2 wounds." sounded like 1 and
    2 for one hit (play-test); the drawn token is named as the one that counts 2."""
    from companion.app.story.hero_cards import wound_effects

    alone = wound_effects(RULES.catalog, "Roel", ["wound-double"])
    among = wound_effects(RULES.catalog, "Roel", ["wound-1", "wound-double"])
    held = wound_effects(RULES.catalog, "Roel", ["wound-double"], drawn=False)
    assert len({alone[0], among[0], held[0]}) == 3, (language, alone, among, held)
    for said in (alone[0], among[0], held[0]):
        assert "2" in said and capital(said) and said.endswith(ENDS), (language, said)
    if language == "en":
        assert alone == ["It is the double wound: it counts as 2 wounds."]
        assert among == ["One of them is the double wound: it counts as 2 wounds."]


def test_no_announcement_says_a_sentence_twice(language: str) -> None:
    """Each story item's words (spoken, bannered) say each sentence once."""
    for item in STORIES:
        said = sentences(spoken(RULES.catalog, item, RULES.fortress))
        assert len(said) == len(set(said)), (language, said)


def test_undo_and_redo_say_one_sentence_each(language: str) -> None:
    """Not "Undo: Attila: move: …": "Undo Attila's move to the stairs in the north room", one
    message per kind of command; the voice of a table without a screen says "Attila's move to
    … is undone." (not "Undone: Attila: move to …"); a card chosen is never named (R-RND-1)."""
    from companion.app.words.undo_texts import undo_label, undone_sentence

    seen: set[str] = set()
    for command in COMMANDS[:400]:
        undo = undo_label(command, RULES.catalog, RULES.fortress)
        redo = undo_label(command, RULES.catalog, RULES.fortress, redo=True)
        undone = undone_sentence(command, RULES.catalog, RULES.fortress)  # the voice's
        assert undone.endswith(ENDS), (language, undone)
        for label in (undo, redo, undone):
            assert capital(label) and "{" not in label, (language, label)
            assert label.count(":") <= 1 and not re.match(r"^\w+\s?:", label), (language, label)
            hero = getattr(command, "hero", None)
            assert not hero or hero_name(hero) in label, (language, label)
        assert undo != redo
        if isinstance(command, c.ChooseCard):
            assert item_name(RULES.catalog, command.card) not in undo + undone, undo
        seen.add(type(command).__name__)
    assert len(seen) >= 8, seen


#: a monster named in a sentence, with its article and as printed: colour and strength
#: (issue 29 playtest: "gegen Monster (rot), Stärke 2 (Blut)", "contre monstre gris")
MONSTER_IN_SENTENCE = {
    "en": r"\ba (?:red|grey) monster of strength \d\b",
    "de": r"\bein (?:rotes|graues) Monster der Stärke \d\b",
    "it": r"\bun mostro (?:rosso|grigio) di forza \d\b",
    "fr": r"\bun monstre (?:rouge|gris) de force \d\b",
}
#: the label's form in running text: "(Blut)", ", Stärke 2"
LABEL_FORM = re.compile(r"\(|, (?:strength|Stärke|forza|force) \d")


def test_a_fights_banner_names_the_monster_in_a_whole_sentence(language: str) -> None:
    """The fight's banner and spoken words, its token line and what the game waits for name
    the monster with its article, colour and strength ("Attila verliert den Kampf gegen ein
    rotes Monster der Stärke 2"), never as a form ("gegen Monster (rot), Stärke 2 (Blut)");
    what a beaten monster gives is a sentence of its own."""
    pattern = re.compile(MONSTER_IN_SENTENCE[language])
    fights = [item for item in STORIES if item.kind == "fight"]
    assert fights
    gives = 0
    for item in fights:
        card = card_of(RULES.catalog, item, RULES.fortress)
        for text in (card.words, card.source, spoken(RULES.catalog, item, RULES.fortress)):
            assert pattern.search(text), (language, text)
            assert not LABEL_FORM.search(text), (language, text)
        for said in sentences(card.source):
            assert capital(said) and said.endswith(ENDS), (language, said)
        gives += len(sentences(card.source)) > 1
    assert gives  # a monster with rewards says what it gives
    waiting = [TASKS[k] for k in (TaskKind.FIGHT, TaskKind.STEALTH_CHOICE) if k in TASKS]
    assert waiting
    for task in waiting:
        line = status_line(task, RULES.catalog)
        assert pattern.search(line) and not LABEL_FORM.search(line), (language, line)


def _first_word(text: str) -> str:
    return re.split(r"[\s:]", text.strip(), maxsplit=1)[0].casefold()


def test_cancel_repeat_undo_and_redo_read_apart(language: str) -> None:
    """A player tells Cancel from Undo and Repeat from Redo by their words: French and Italian
    said "Annuler"/"Annulla" for both Cancel and the Undo sentence, German and Italian
    "Wiederholen"/"Ripeti" for both Repeat (say it again) and Redo. In every language the four
    buttons read apart, and no Undo or Redo sentence starts with (or holds) the Cancel or the
    Repeat word."""
    from companion.app.words.undo_texts import UNDO_TEXTS

    cancel, repeat = i18n.tr("Cancel"), i18n.tr("Repeat")
    undo, redo = i18n.tr("Undo"), i18n.tr("Redo")
    words = [_first_word(x) for x in (cancel, repeat, undo, redo)]
    assert len(set(words)) == 4, (language, cancel, repeat, undo, redo)
    apart = {_first_word(cancel), _first_word(repeat)}
    for undo_text, redo_text, _undone in UNDO_TEXTS.values():
        for sentence in (i18n.tr(undo_text), i18n.tr(redo_text)):
            said = {w.casefold() for w in re.findall(r"\w+", sentence)}
            assert _first_word(sentence) not in apart, (language, sentence)
            assert not said & apart, (language, sentence)
    # Nor is Cancel the word the language's players know from Undo (Ctrl+Z): French "Annuler",
    # Italian "Annulla", German "Rückgängig", English "Undo".
    assert _first_word(cancel) not in USUAL_UNDO[language], (language, cancel)


USUAL_UNDO = {
    "en": {"undo"},
    "de": {"rückgängig"},
    "it": {"annulla", "annullare"},
    "fr": {"annuler", "annule"},
}


def _catalog(language: str, leave_out: frozenset[str] = frozenset()) -> list[str]:
    path = LOCALE_DIR / language / "LC_MESSAGES" / "armata.po"
    with path.open("rb") as po:
        found = read_po(po, locale=language)
    texts: list[str] = []
    for message in found:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.id and not leave_out.intersection(ids):
            string = message.string
            texts += list(string) if isinstance(string, tuple) else [string]
    return texts


#: the placeholders that may hold a hero's printed name
HERO_PLACEHOLDERS = re.compile(r"\{(?:hero|heroes|other|last|name|figure)\}")


def test_french_elides_before_a_vowel_or_says_it_otherwise() -> None:
    """ "de Attila" is wrong French ("d'Attila"): no message puts de, que, le, la, ne, se or ce
    before a hero's name (Attila begins with a vowel); no "de le Maître" (du Maître) either.
    Italian says "ad Attila", never "a Attila": its messages name the hero otherwise."""
    vowels = [h for h in ("Attila", "Falk Maria", "Matthew", "Charles", "Roel") if h[0] in "AEIOU"]
    assert vowels
    for text in _catalog("it"):
        for hero in vowels:
            filled = HERO_PLACEHOLDERS.sub(hero, text)
            assert not re.search(rf"\ba {hero}", filled), text
    strigoi = [i18n.catalog("fr").gettext(x) for x in ("the Master", "the Apprentice")]
    for text in _catalog("fr"):
        for hero in vowels:
            filled = HERO_PLACEHOLDERS.sub(hero, text)
            assert not re.search(rf"\b(?:de|que|le|la|ne|se|ce|je) {hero}", filled), text
        for name in strigoi:
            filled = text.replace("{strigoi}", name)
            assert not re.search(r"\b(?:de|à) (?:le|les) ", filled, re.IGNORECASE), text


def test_french_puts_no_article_before_a_direction() -> None:
    """ "vers le est" is wrong French ("vers l'est"): a direction ({direction}, {direction_name})
    follows no article that would have to elide before est and ouest ("côté est" reads well
    with every direction)."""
    for text in _catalog("fr"):
        assert not re.search(r"\b(?:le|de|du|au) \{direction(?:_name)?\}", text), text


def test_french_never_puts_est_after_a_room() -> None:
    """A room may be the "chambre est": "la chambre est est côté ouest" reads as a stutter, so
    no French message puts the verb "est" right after a room or a space."""
    for text in _catalog("fr"):
        assert not re.search(r"\{(?:room|home|space)\} est\b", text), text


def test_french_writes_strigoi_as_its_rulebook_does() -> None:
    """The French rulebook writes "Strigoï": every French message does (the game's title
    "Armata Strigoi" is a name, as printed)."""
    for text in _catalog("fr"):
        assert not re.search(r"Strigoi(?!ï)", text.replace("Armata Strigoi", "")), text


def test_german_puts_no_gendered_word_before_an_ability() -> None:
    """The abilities are of every gender (der Schutz, die Tarnung, die Tore): a word that
    agrees with one ("keine Schutz") never stands before {ability}."""
    for text in _catalog("de"):
        assert not re.search(r"\b(?:kein\w*|d[eia][rnms]|eine?\w*)\s+\{ability\}", text), text
    i18n.set_language("de")
    try:
        from companion.app.words.names import token_name

        names = [token_name(RULES.catalog, w.id) for w in RULES.catalog.wound_tokens]
    finally:
        i18n.set_language("en")
    assert not any(re.search(r"\bkeine (?:Schutz|Sprung)\b", n) for n in names), names


def test_the_drawn_token_is_told_in_a_sentence_not_a_form(language: str) -> None:
    """The card's token line reads as said at the table ("Gezogen wurde der Lehrlingsmarker."),
    never as a form's field and value ("Gezogen wurde: Marker Lehrling.")."""
    told = set()
    for item in STORIES:
        if item.kind != "strigoi_step":
            continue
        source = card_of(RULES.catalog, item, RULES.fortress).source
        first = source.split(". ")[0]
        if first:
            told.add(first)
            assert ":" not in first, (language, source)
    assert told, language
    if language == "de":
        german = re.compile(r"Gezogen wurde der (?:Lehrlings|Meister)marker\b")
        assert any(german.match(t) for t in told), told
        assert not any("-Marker" in t for t in told), told


#: German words of "du": its pronouns and the du-imperatives the table's messages would use
#: ("Tippe", "Wähle", "Lege", "Ziehe"...); the table addresses the group: "ihr" ("Tippt")
GERMAN_DU = re.compile(
    r"\b(?:du|dich|dir|dein|deine[mnrs]?"
    r"|tippe|tausche|wähle|lege|ziehe|zieh|halte|scanne|gib|nimm|versuche|drücke|drehe|schiebe"
    r"|prüfe|bewege|verbinde|setze|schau|sieh|starte|beende|lies|höre?|warte|bestätige"
    r"|entferne|gehe?|stelle (?:die|den|das|eine?n?)\b)\b",
    re.IGNORECASE,
)
#: French "tu" and Italian "tu" (pronouns and the imperatives the messages would use)
FRENCH_TU = re.compile(
    r"\b(?:tu|toi|ton|ta|tes|choisis|touche|pose|scanne|réessaie|prends|glisse|attends)\b(?!-)"
    r"|\b(?:pose|touche|choisis)-(?:la|le)\b",
    re.IGNORECASE,
)
ITALIAN_TU = re.compile(
    r"\b(?:tu|tuo|tua|tuoi|scegli|tocca(?!\s+al)|scansiona|riprova|libera spazio|metti|scambia due"
    r"|appoggia(?:la|le|lo)?|trascina|girala|gira la)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize(
    ("language", "pattern"), [("de", GERMAN_DU), ("fr", FRENCH_TU), ("it", ITALIAN_TU)]
)
def test_the_table_addresses_the_group_in_each_language(
    language: str, pattern: re.Pattern[str]
) -> None:
    """Around the table everybody reads the screen: German says "ihr" (Tippt, Legt, euer),
    never "du" (the wizard said "Tippe auf einen Raum" while the game said "Tippt..."); French
    says "vous", Italian "voi". Rendered with a hero's name where a message names one."""
    found = []
    for text in _catalog(language, leave_out=ONE_PLAYER):
        filled = HERO_PLACEHOLDERS.sub("Attila", text)
        if pattern.search(filled):
            found.append(filled)
    assert not found, found


def test_the_seat_page_addresses_its_one_player() -> None:
    """A phone's seat page is read by one player: German says "du" there, Italian "tu"."""
    assert ONE_PLAYER
    german = i18n.catalog("de")
    assert german.gettext("Your turn: move.").startswith("Du ")
    assert i18n.catalog("it").gettext("Your turn: move.").startswith("Tocca a te")


def test_french_says_chambre_for_a_room_everywhere() -> None:
    """The French rooms are "chambres" (the game's names: "la chambre est"); the wizard's
    step said "Disposition des salles"."""
    for text in _catalog("fr"):
        assert not re.search(r"\bsalles?\b", text, re.IGNORECASE), text


@pytest.mark.parametrize(
    ("msgid", "values", "natural", "clumsy"),
    [
        (
            "Put {strigoi} on the centre of the {room}.",
            {"strigoi": "the Master", "room": "E"},
            "Der Meister wird in die Mitte vom Raum Ost gestellt.",  # a table instruction
            "auf die Mitte im",
        ),
        (
            "{strigoi} teleports from {start} to the centre of {to}",
            {"strigoi": "the Master", "start": "W", "to": "E"},
            "Der Meister teleportiert vom Raum West mitten in den Raum Ost",
            "auf die Mitte im",
        ),
        (
            "No ladder on the {side} side of the {room}: no corridor reaches it.",
            {"side": 1, "room": "E"},
            "Im Raum Ost kann an der Seite nach Nordosten keine Leiter stehen",
            "auf der Seite Nordosten",
        ),
    ],
)
def test_german_says_the_centre_and_a_side_as_german_does(
    msgid: str, values: dict[str, object], natural: str, clumsy: str
) -> None:
    """German says "mitten in den Raum Ost" and "an der Seite nach Nordosten", never the
    word-for-word English "auf die Mitte im Raum Ost", "auf der Seite Nordosten im Raum
    Ost". Rendered with the game's room and direction names."""
    from companion.app.words.names import direction_name, room_name

    i18n.set_language("de")
    try:
        filled = {}
        for key, value in values.items():
            if key == "strigoi":
                filled[key] = i18n.tr(str(value))
            elif key == "side":
                filled[key] = direction_name(int(str(value)))
            else:
                filled[key] = room_name(str(value))
        text = i18n.capital_first(i18n.tr(msgid).format(**filled))
    finally:
        i18n.set_language("en")
    assert text.startswith(natural), text
    assert clumsy not in text, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_heros_rewards_on_the_phone_are_sentences(language: str) -> None:
    """The phone's hero list said "Jetons récompense: aucune" (a form, and "aucune" does not
    agree with "jetons"): it says a sentence each, with the game's real rewards and plurals
    ("Attila n'a aucun jeton récompense.")."""
    from pathlib import Path

    from companion.app.story.hero_cards import held_rewards

    said = set()
    i18n.set_language(language)
    try:
        for state, _story in PLAYED:
            for h in state.heroes:
                said.add(held_rewards(RULES.catalog, h.hero, h.reward_cards, h.reward_tokens))
    finally:
        i18n.set_language("en")
    assert len(said) > 3, said
    for text in said:
        assert text[0].isupper() and text.endswith("."), (language, text)
        assert text.count(".") == 2, (language, text)  # two sentences, no label
        assert not re.search(r"\b(?:none|keine|aucune|nessuno)\.", text), (language, text)
    if language == "fr":
        assert any("n'a aucun jeton récompense." in t for t in said), said
    app = (Path(__file__).parents[2] / "ui" / "web" / "static" / "app.js").read_text()
    assert "w.none}" not in app  # the page builds no "label: none" line


#: the word for a wound in each language (a give line names the token once: never "le jeton
#: blessure : blessure")
WOUND_WORDS = {"en": "wound", "de": "Verletzung", "fr": "blessure", "it": "ferita"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wound_card_names_each_token_once_in_a_sentence(language: str) -> None:
    """The wound card said "Donnez à Attila le jeton blessure : blessure.": each token it has the
    table hand over is one sentence naming it once, by what it does."""
    wounds = [item for item in STORIES if item.kind == "wound"]
    assert wounds
    gives = set()
    i18n.set_language(language)
    try:
        for item in wounds:
            card = card_of(RULES.catalog, item, RULES.fortress)
            tokens = item.facts["tokens"]  # type: ignore[index]
            lines = card.todo[: len(tokens)]  # type: ignore[arg-type]
            for line in lines:
                gives.add(line)
                assert ":" not in line, (language, line)
                assert line.lower().count(WOUND_WORDS[language].lower()) <= 1, (language, line)
                assert capital(line) and line.endswith("."), (language, line)
    finally:
        i18n.set_language("en")
    assert len(gives) > 1, gives


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_setup_wizards_ladder_list_says_a_sentence_per_hero(language: str) -> None:
    """The wizard's list said "Roel: Chambre ouest, côté sud-ouest" (a capital mid-line, no
    French space before the colon): each hero's line is a sentence naming the room in lower
    case, for every outer side of the fortress and for a hero with no ladder yet."""
    from companion.app.words.names import room_name
    from companion.app.words.table_texts import ladder_seat_line

    i18n.set_language(language)
    try:
        rooms = {room: room_name(room) for room in RULES.fortress.rooms}
        lines = [
            (rooms[room], ladder_seat_line(hero, (room, side)))
            for hero, _ladder in SEATS
            for room in RULES.fortress.rooms
            for side in range(6)
        ]
        lines.append(("", ladder_seat_line("roel", None)))
    finally:
        i18n.set_language("en")
    for room, line in lines:
        assert capital(line) and line.endswith(".") and ":" not in line, (language, line)
        assert room in line, (language, room, line)  # the room's own lower-case name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hero_panels_header_is_whole_sentences(language: str) -> None:
    """The panel's header said "0 Verletzungen von 3 · ein Feld im Raum Ost" (two fragments
    joined by a dot): it says sentences naming the hero ("Roel hat keine Verletzungen. Roel
    steht auf einem Feld im Raum Ost."), in the real games' states."""
    from companion.app.story.hero_panel import summary

    said = set()
    i18n.set_language(language)
    try:
        for state, _story in PLAYED[::7]:
            for h in state.heroes:
                said.add((hero_name(h.hero), summary(RULES, state, h)))
    finally:
        i18n.set_language("en")
    assert len(said) > 4, said
    for name, text in said:
        assert "·" not in text and text.endswith("."), (language, text)
        for one in sentences(text):
            assert one.startswith(name), (language, text)
    if language == "de":
        assert any("steht auf einem Feld im Raum" in t for _n, t in said), said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_over_summary_is_whole_sentences(language: str) -> None:
    """The game-over screen said "Manches : 9 · Autel 0 · Enfer 3" and "Matthew : 0 blessure,
    une défaite, 0 récompense" ("une défaite" read as the player's own defeat): each line is
    whole sentences, with the real games' final counts and plurals."""
    from companion.app.words.status import game_over_summary

    ends = [state for state, _story in PLAYED if state.phase == "over"]
    assert ends
    lines: list[str] = []
    figures: list[str] = []
    i18n.set_language(language)
    try:
        for state in ends:
            heroes = [
                (h.hero, len(h.wounds), h.defeated, len(h.reward_cards) + len(h.reward_tokens))
                for h in state.heroes
            ]
            strigoi = [
                (n, w, n in state.destroyed) for n, w in sorted(state.strigoi_wounds.items())
            ]
            summary = game_over_summary(state.round, state.altar, state.inferno, heroes, strigoi)
            lines += summary
            figures += summary[1:]  # the heroes' and Strigoi's lines
    finally:
        i18n.set_language("en")
    for line in lines:
        assert "·" not in line and ":" not in line and line.endswith("."), (language, line)
        for one in sentences(line):
            assert capital(one), (language, line)
    assert figures
    assert not any(re.search(r"\b(?:une défaite|0 \w+)", line) for line in figures), figures


def test_a_sensed_table_line_is_whole_sentences_without_two_brackets(language: str) -> None:
    """The round screen's table list said "…faces east (the lit edge). (the readers will see
    it)": two brackets in a row. Each thing is its own sentence, in every language."""
    from companion.app.table.tracking import Action, Step
    from companion.app.words.table_texts import table_line

    room = next(iter(RULES.fortress.platforms))
    for step in (Step.TURN, Step.SET_UP, Step.RESTORE_PLATFORM):
        action = Action(room=room, reader=0, step=step, rotation=2, platform=None, sensed=True)
        line = table_line(RULES.fortress, action)
        assert "(" not in line and ")" not in line, (language, line)
        said = re.split(r"(?<=[.!?])\s+", line)
        assert len(said) == 2, (language, line)
        for sentence in said:
            assert sentence[0].isupper() and sentence.endswith(ENDS), (language, line)


def test_the_rules_pages_show_no_rule_codes(language: str) -> None:
    """The Rules screen led each paragraph with "R-TEL-1…8" and its texts cited "R-TEL-4",
    "(R-CUR)": players see "Rule 4" and section titles, never a code, in every section; the
    phone's Why? rule text likewise."""
    from companion.app.words.rules_words import RULE_CODE, readable, rule_heading
    from companion.rules_text import rules_reference

    code = re.compile(r"\bR-[A-Z]{2,5}\b")
    shown = 0
    for section in rules_reference(i18n.current_language()):
        assert not code.search(section.title), (language, section.title)
        for rule_id, text in [
            *section.rules.items(),
            *((section.prefix, n) for n in section.notes),
        ]:
            for words in (rule_heading(rule_id), readable(text, section.prefix, language)):
                assert not code.search(words) and not RULE_CODE.search(words), (language, words)
                assert "{" not in words and "“”" not in words, (language, words)
            shown += 1
    assert shown > 40
    cited = why_line("x", "R-TEL-7")["rule"]
    assert isinstance(cited, str) and cited and not code.search(cited), (language, cited)


@pytest.mark.parametrize(
    "code", ["ladder", "ladder_guarded", "ladder_destroyed", "ladder_occupied"]
)
@pytest.mark.parametrize("owned", [False, True])
def test_a_ladder_in_a_reason_is_named_once(language: str, code: str, owned: bool) -> None:
    """Why? said "Roel was on ladder a ladder" in English: the engine's phrase says "ladder
    {ladder}" and the table names the ladder whole ("a ladder", "Roel's ladder"), so every
    language's text puts the name in the ladder's place alone."""
    from companion.app.words.names import LADDER_OWNERS
    from companion.app.words.status import render
    from companion.engine.explain import Reason

    saved = dict(LADDER_OWNERS)
    LADDER_OWNERS.clear()
    if owned:
        LADDER_OWNERS["L3"] = "matthew"  # another hero's ladder: named by its owner
    try:
        facts = {"strigoi": "master", "hero": "roel", "ladder": "L3", "room": "N"}
        text = render(Reason("R-TEL-4", code, facts))
    finally:
        LADDER_OWNERS.clear()
        LADDER_OWNERS.update(saved)
    word = {"en": "ladder", "de": "Leiter", "fr": "échelle", "it": "scala"}[language]
    assert "L3" not in text and "{" not in text, (language, text)
    # never the word twice around one name: "ladder a ladder", "ladder Matthew's ladder"
    assert not re.search(rf"\b{word}\s+(?:\w+\s+|\w+'s\s+){word}\b", text), (language, text)
    assert ("Matthew" in text) == owned, (language, text)


def test_a_step_of_the_game_log_is_a_sentence(language: str) -> None:
    """The German game log read "13. Attila: Marker ziehen", "Roel: Son of the Wolf spielen":
    the buttons' forms. A step in the log (the touchscreen's, the phones') is a sentence:
    "Roel spielt Son of the Wolf."; a correction keeps its "Fix:" heading."""
    from companion.app.words.command_labels import log_sentence

    heroes = {hero_name(hero) for hero, _ladder in SEATS}
    said = set()
    for command in COMMANDS:
        hidden = isinstance(command, c.ChooseCard) and len(said) % 2 == 0
        text = log_sentence(command, RULES.catalog, RULES.fortress, hidden)
        said.add(text)
        assert capital(text) and text.endswith(ENDS) and "{" not in text, (language, text)
        if not isinstance(command, c.CORRECTIONS):
            assert not any(text.startswith(f"{hero}:") for hero in heroes), (language, text)
    assert len(said) > 20, said


#: words a language's rulebook never uses for a game term, with the word it does use
NOT_THE_RULEBOOKS = {
    "it": {"round": "Assalto"},
    "de": {"Plättchen": "Marker", "Wunden?": "Verletzung"},
}


@pytest.mark.parametrize("language", sorted(NOT_THE_RULEBOOKS))
def test_game_terms_are_the_rulebooks(language: str) -> None:
    """The Italian screens said "Assalto" and the curse line and the rules said "round"; the
    German voice drew "ein Plättchen" where the buttons say "Marker": one term per language,
    the printed rulebook's, in the catalog and the translated rules."""
    from tests.conftest import ROOT

    catalog = (LOCALE_DIR / language / "LC_MESSAGES" / "armata.po").read_text(encoding="utf-8")
    texts = [line for line in catalog.splitlines() if line.startswith("msgstr")]
    rules = ROOT / "companion" / "data" / f"RULES.{language}.md"
    texts += rules.read_text(encoding="utf-8").splitlines()
    for wrong, right in NOT_THE_RULEBOOKS[language].items():
        words = [re.sub(r"\{\w+\}", "", t) for t in texts]  # a placeholder is no word
        found = [t for t in words if re.search(rf"\b{wrong}\b", t, re.IGNORECASE)]
        assert not found, (language, wrong, right, found[:3])


def test_whatever_a_hero_used_this_round_has_a_name(language: str) -> None:
    """The hero panel read "Used this round: wound_icon": the engine marks the card's wound
    icon used like an ability. Everything it marks used is named in the players' words."""
    from companion.app.words.names import ability_name

    used = {a for state, _ in PLAYED for h in state.heroes for a in h.used}
    assert "wound_icon" in used and len(used) > 3, used
    for ability in used:
        name = ability_name(ability)
        assert "_" not in name and name != ability, (language, ability, name)


def test_an_icon_printed_twice_is_counted_not_repeated(language: str) -> None:
    """The hero panel and the phones listed "Schutz, Schutz" for a card with two Protection
    icons: an icon printed twice reads "Schutz ×2", on every card."""
    from companion.app.words.names import ability_name, ability_names

    doubled = 0
    for card in [*RULES.catalog.action_cards, *RULES.catalog.advanced_cards]:
        names = ability_names(card.abilities)
        assert len(names) == len(set(names)) == len(set(card.abilities)), (language, names)
        for ability in set(card.abilities):
            if card.abilities.count(ability) > 1:
                assert f"{ability_name(ability)} ×{card.abilities.count(ability)}" in names
                doubled += 1
    assert doubled, "no card prints an icon twice: the test sees nothing"

"""Set-up corrections: a part of the table set as it is (a hero's cards, tokens and wounds, the
fight markers, a Strigoi's wounds, the standing ladders, a face-up monster). Each component
named is taken from wherever it lies; each one it displaces goes where the table would put it,
so every component stays exactly once in the game (invariants.py)."""

from __future__ import annotations

from collections.abc import Iterator

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules, board_state
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.fold import HERO_PILES, STACK_PILES, pile
from companion.engine.game.state import GameState

#: the hero piles a `SetCards` sets, by its field
TARGETS = ("hand", "discard", "reward_tokens", "wounds")


def _piles(state: GameState) -> Iterator[str]:
    yield "advanced_left"
    yield "removed"
    for name in state.stacks:
        for kind in STACK_PILES:
            yield f"{name}.{kind}"
    for h in state.heroes:
        for kind in HERO_PILES:
            yield f"{h.hero}.{kind}"


def _where(state: GameState, item: str) -> str | None:
    for name in _piles(state):
        if item in pile(state, name):
            return name
    return None


def _fits(rules: GameRules, hero: str, target: str, item: str) -> bool:
    catalog = rules.catalog
    if target in ("hand", "discard"):
        if catalog.reward_card(item) is not None:
            return True
        if any(x.id == item for x in catalog.advanced_cards):
            return True
        return item in catalog.hero_cards(hero)
    if target == "reward_tokens":
        return catalog.reward_token(item) is not None
    return any(x.id == item for x in catalog.wound_tokens)


def _home(rules: GameRules, hero: str, item: str, source: str, targets: set[str]) -> str:
    """Where a component displaced from `source` goes."""
    catalog = rules.catalog
    if item in catalog.hero_cards(hero):  # the own action cards: between hand and discard pile
        other = "discard" if source == "hand" else "hand"  # both set: out of the game
        return "removed" if other in targets else f"{hero}.{other}"
    if any(x.id == item for x in catalog.advanced_cards):
        return "advanced_left"
    if catalog.reward_card(item) is not None:
        return "reward_card.discard"
    if catalog.reward_token(item) is not None:
        return "reward_token.discard"
    return "wound.discard"


def set_cards(rules: GameRules, em: Emitter, cmd: c.SetCards) -> None:
    state = em.state
    h = state.hero(cmd.hero)
    targets = {t: list(getattr(cmd, t)) for t in TARGETS if getattr(cmd, t) is not None}
    named = [x for items in targets.values() for x in items]
    doubled = sorted({x for x in named if named.count(x) > 1})
    if doubled:
        raise refuse(cmd, f"each component is in one place: {doubled}")
    for target, items in targets.items():
        wrong = [x for x in items if not _fits(rules, cmd.hero, target, x)]
        if wrong:
            raise refuse(cmd, f"{wrong} cannot be in {cmd.hero}'s {target}")
    chosen = h.chosen
    if chosen is not None and chosen in h.hand and chosen not in targets.get("hand", [chosen]):
        raise refuse(cmd, f"{cmd.hero} has chosen {h.chosen!r}: it stays in the hand")
    kinds = [_kind(rules, x) for x in targets.get("hand", []) + targets.get("discard", [])]
    kinds = [k for k in kinds if k is not None]
    if len(set(kinds)) != len(kinds):
        raise refuse(cmd, "never two identical advanced cards (R-ADV)")
    moves: list[e.Moved] = []
    for target, items in targets.items():
        destination = f"{cmd.hero}.{target}"
        for item in items:
            source = _where(state, item)
            if source is None or source.endswith(".in_play"):
                raise refuse(cmd, f"{item!r} is in play")
            if source != destination:
                moves.append(e.Moved(item=item, source=source, target=destination))
    for target in targets:
        for item in pile(state, f"{cmd.hero}.{target}"):
            if item in named:
                continue
            home = _home(rules, cmd.hero, item, target, set(targets))
            moves.append(e.Moved(item=item, source=f"{cmd.hero}.{target}", target=home))
    if moves:
        em(e.ComponentsMoved(moves=moves))


def _kind(rules: GameRules, item: str) -> str | None:
    for card in rules.catalog.advanced_cards:
        if card.id == item:
            return card.kind if card.kind != "legendary" else card.id
    return None


def set_face_up(rules: GameRules, em: Emitter, cmd: c.SetFaceUp) -> None:
    stack = em.state.stacks[cmd.stack]
    if cmd.token == stack.face_up:
        return
    moves: list[e.Moved] = []
    if stack.face_up is not None:  # back on top of its stack
        moves.append(
            e.Moved(item=stack.face_up, source=f"{cmd.stack}.face_up", target=f"{cmd.stack}.draw")
        )
    if cmd.token is not None:
        piles = (f"{cmd.stack}.draw", f"{cmd.stack}.discard")
        source = next((x for x in piles if cmd.token in pile(em.state, x)), None)
        if source is None:
            raise refuse(cmd, f"{cmd.token!r} is not in the {cmd.stack} stack or its discards")
        moves.append(e.Moved(item=cmd.token, source=source, target=f"{cmd.stack}.face_up"))
    em(e.ComponentsMoved(moves=moves))


def arrange(rules: GameRules, em: Emitter, cmd: c.Command) -> None:
    """Apply one set-up correction (one of `commands.SET_UP`), or refuse it."""
    state = em.state
    if isinstance(cmd, c.SetCards):
        if cmd.hero not in {h.hero for h in state.heroes}:
            raise refuse(cmd, f"{cmd.hero!r} is not playing")
        set_cards(rules, em, cmd)
    elif isinstance(cmd, c.SetFaceUp):
        set_face_up(rules, em, cmd)
    elif isinstance(cmd, c.SetFightMarkers):
        cells = [(x[0], x[1]) for x in cmd.cells]
        board = board_state(state)
        if len(cells) > 6 or len(set(cells)) != len(cells):
            raise refuse(cmd, "at most six fight markers, one per space (R-ENC-4)")
        wrong = [list(x) for x in cells if not rules.fortress.is_space(x, board)]
        if wrong:
            raise refuse(cmd, f"{wrong} are not spaces")
        em(e.FightMarkersSet(cells=cells))
    elif isinstance(cmd, c.SetStrigoiWounds):
        if cmd.strigoi not in state.strigoi:
            raise refuse(cmd, f"{cmd.strigoi!r} is not on the board")
        existence = rules.catalog.strigoi[cmd.strigoi].existence
        if not 0 <= cmd.wounds < existence:
            raise refuse(cmd, f"{cmd.strigoi} takes 0-{existence - 1} wounds and stands")
        em(e.StrigoiWoundsSet(strigoi=cmd.strigoi, wounds=cmd.wounds))
    elif isinstance(cmd, c.SetLadders):
        unknown = sorted(set(cmd.ladders) - set(state.ladders))
        if unknown or len(set(cmd.ladders)) != len(cmd.ladders):  # destroyed, never rebuilt
            raise refuse(cmd, f"ladders still standing, each once (not {unknown})")
        going = {rules.fortress.ladders[x].cell for x in state.ladders if x not in cmd.ladders}
        on = sorted(h.hero for h in state.heroes if h.at in going)
        if on:
            raise refuse(cmd, f"{', '.join(on)} stands on a ladder that would go")
        em(e.LaddersSet(ladders=sorted(cmd.ladders)))
    else:
        raise refuse(cmd, "not a set-up correction")


__all__ = ["arrange", "set_cards", "set_face_up"]

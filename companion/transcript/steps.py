"""Steps of a transcript, in the players' words, to engine commands and back.

A step is a JSON object with one verb (`move`, `fight`, `protect`, ...; the full list in
docs/transcripts.md), the acting `hero` where there is one, and the verb's own fields. Which
component a name means is decided against the state the step is played on (the hero's hand,
the stack the game draws from), so identical components never need telling apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.kinds import StackName
from companion.engine.game.queries import DISCARDABLE, ability_sources
from companion.engine.game.state import GameState, HeroState
from companion.errors import TranscriptError
from companion.transcript.names import PLAYED_CARD, Names, key

Step = dict[str, Any]
#: one correction of a set-up, built against the state it is played on
Builder = Callable[[GameState], c.Command]
#: every verb a step may use (besides "fix" and an expectation-only step)
VERBS = (
    "choose", "move", "stay", "draw", "fight", "leave", "free monk", "attack monk", "attack",
    "skip fight", "protect", "discard", "relocate", "take marker", "leap", "fall", "mechanics",
    "heal", "recovery", "gates of hell", "retrieval", "pack", "swap", "rebel draw", "proceed",
    "set up",
)  # fmt: skip
#: what a "set up" step may set, in the order it is set (each a correction: SET_UP, fixes)
SETUP_KEYS = (
    "positions", "rotations", "altar", "inferno", "strigoi wounds", "ladders", "fight markers",
    "face up", "hand", "discard", "reward tokens", "wounds",
)  # fmt: skip
#: a hero's piles a "set up" step sets, by the field of `SetCards`
CARD_KEYS = {"hand": "hand", "discard": "discard", "reward tokens": "reward_tokens",
             "wounds": "wounds"}  # fmt: skip
FIXES = ("position", "strigoi", "blood", "add wound", "remove wound", "rotation")
#: fields a step may carry besides its verb's
COMMON = ("hero", "expect", "refused", "note", "during")


def verb_of(step: Step) -> str | None:
    verbs = [k for k in step if k in VERBS or k == "fix"]
    if len(verbs) > 1:
        raise TranscriptError(f"one verb per step, got {', '.join(verbs)}")
    return verbs[0] if verbs else None


class StepReader:
    """Turns steps into commands for one game (its rules and names)."""

    def __init__(self, rules: GameRules, names: Names) -> None:
        self.rules = rules
        self.names = names

    def command(self, step: Step, state: GameState) -> c.Command:
        verb = verb_of(step)
        if verb is None:
            raise TranscriptError("the step names no verb (or only expectations)")
        try:
            if verb == "set up":
                raise TranscriptError("a set-up is several corrections: see `set_up`")
            if verb == "fix":
                return self._fix(step, state)
            hero = self._hero(step, state)
            return _READERS[verb](self, step, state, hero)
        except TranscriptError as exc:
            if str(exc).startswith("field "):
                raise
            raise TranscriptError(f"field {verb!r}: {exc}") from None
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise TranscriptError(f"field {verb!r}: cannot read {step[verb]!r} ({exc})") from None

    # ----- helpers ---------------------------------------------------------------------------
    def _hero(self, step: Step, state: GameState) -> HeroState:
        if "hero" not in step:
            raise TranscriptError("field 'hero': missing (who does it)")
        try:
            hero = self.names.hero_id(step["hero"])
        except TranscriptError as exc:
            raise TranscriptError(f"field 'hero': {exc}") from None
        try:
            return state.hero(hero)
        except KeyError:
            raise TranscriptError(f"field 'hero': {step['hero']!r} is not playing") from None

    def source(self, h: HeroState, name: object, ability: str) -> str:
        """An ability's source by name: "played card", a card or reward in hand."""
        if name is None or (isinstance(name, str) and key(name) == PLAYED_CARD):
            return "card"
        discard = ability in DISCARDABLE or ability == "leap"  # Leap: a collapse's escape
        found = ability_sources(self.rules, h, ability, discard=discard)
        return self.owned(h, name, [x for x in found if x != "card"], f"{ability} source")

    def owned(self, h: HeroState, name: object, allowed: list[str], what: str) -> str:
        """A component among `allowed`; else, for the engine to refuse with its reason, any card
        or reward token the hero could ever hold (a card not in the hand is a refusal the
        transcript can expect, a name nobody has is a mistake in the transcript)."""
        try:
            return self.names.card_id(name, allowed, what)
        except TranscriptError:
            catalog = self.rules.catalog
            anything = [*catalog.hero_cards(h.hero), *(x.id for x in catalog.advanced_cards)]
            anything += [f"{x.id}:{m}" for x in catalog.reward_cards for m in MODES]
            anything += [x.id for x in catalog.reward_cards]
            anything += [x.id for x in catalog.reward_tokens]
            try:
                return self.names.card_id(name, anything, what)
            except TranscriptError:
                raise TranscriptError(
                    f"unknown {what} {name!r} (known here: "
                    f"{'; '.join(sorted({self.names.card(x) for x in allowed})) or 'none'})"
                ) from None

    def wound(self, h: HeroState, name: object, what: str) -> str:
        """One of the hero's wound tokens; else any wound token, for the engine to refuse."""
        try:
            return self.names.token_id(name, h.wounds, what)
        except TranscriptError:
            every = [x.id for x in self.rules.catalog.wound_tokens]
            try:
                return self.names.token_id(name, every, what)
            except TranscriptError:
                known = "; ".join(sorted({self.names.token(x) for x in h.wounds})) or "none"
                raise TranscriptError(f"unknown {what} {name!r} (known here: {known})") from None

    def rewards(self, h: HeroState, names: object) -> list[c.RewardPlay]:
        if names is True or names is None:
            return []
        if not isinstance(names, list):
            raise TranscriptError("rewards are a list of names ('Sword (wild)', 'token +1')")
        held = [f"{x}:{m}" for x in h.hand if self.rules.catalog.reward_card(x) for m in MODES]
        held += list(h.reward_tokens)
        plays = []
        for name in names:
            item = self.owned(h, name, held, "reward")
            item_id, _, mode = item.partition(":")
            plays.append(c.RewardPlay(item=item_id, mode=mode or "normal"))  # type: ignore[arg-type]
        return plays

    def space(self, step: Step, field: str) -> tuple[int, int]:
        try:
            cell = self.names.space_id(step[field])
        except TranscriptError as exc:
            raise TranscriptError(f"field {field!r}: {exc}") from None
        if cell is None:
            raise TranscriptError(f"field {field!r}: a space on the board is needed")
        return cell

    def token(self, step: Step, state: GameState, stack: StackName, name: object) -> str:
        st = state.stacks[stack]
        # the one the rules allow first (the face-up monster, the stack, its discards when it is
        # empty), else any other of the stack, for the engine to refuse with its reason
        allowed = [st.face_up] if st.face_up else (st.draw or st.discard)
        try:
            return self.names.token_id(name, allowed, f"{stack} token")
        except TranscriptError:
            rest = [*st.draw, *st.discard]
            return self.names.token_id(name, rest or allowed, f"{stack} token")

    # ----- set-up steps: corrections that set a part of the table -------------------------
    def set_up(self, spec: object) -> list[tuple[str, Builder]]:
        """The corrections of a "set up" step, in `SETUP_KEYS` order: (field, builder), each
        builder reading its names against the state it is played on."""
        if not isinstance(spec, dict) or not spec:
            raise TranscriptError(f"field 'set up': an object of {', '.join(SETUP_KEYS)}")
        unknown = sorted(set(spec) - set(SETUP_KEYS))
        if unknown:
            raise TranscriptError(
                f"field 'set up': unknown key {unknown[0]!r} (known: {', '.join(SETUP_KEYS)})"
            )
        n = self.names
        found: list[tuple[str, Builder]] = []

        def by_name(field: str) -> dict[str, Any]:
            value = spec[field]
            if not isinstance(value, dict):
                raise TranscriptError(f"field 'set up.{field}': an object by name")
            return value

        if "positions" in spec:
            for name, where in by_name("positions").items():
                found.append((f"set up.positions.{name}", self._place(name, where)))
        if "rotations" in spec:
            for room_name, turn in by_name("rotations").items():

                def rotate(state: GameState, room_name: str = room_name, turn: Any = turn) -> Any:
                    room = n.room_id(room_name)
                    return c.SetRotation(room=room, rotation=n.rotation_id(room, turn))

                found.append((f"set up.rotations.{room_name}", rotate))
        if "altar" in spec or "inferno" in spec:

            def blood(state: GameState) -> c.Command:
                altar, inferno = spec.get("altar", state.altar), spec.get("inferno", state.inferno)
                if type(altar) is not int or type(inferno) is not int:
                    raise TranscriptError("blood points are whole numbers")
                return c.SetBlood(altar=altar, inferno=inferno)

            found.append(("set up.altar" if "altar" in spec else "set up.inferno", blood))
        if "strigoi wounds" in spec:
            for name, wounds in by_name("strigoi wounds").items():

                def hurt(state: GameState, name: str = name, wounds: Any = wounds) -> c.Command:
                    if type(wounds) is not int:
                        raise TranscriptError(f"a number of wounds, got {wounds!r}")
                    return c.SetStrigoiWounds(strigoi=n.strigoi_id(name), wounds=wounds)

                found.append((f"set up.strigoi wounds.{name}", hurt))
        if "ladders" in spec:

            def ladders(state: GameState) -> c.Command:
                return c.SetLadders(ladders=[n.ladder_id(x) for x in _list(spec["ladders"])])

            found.append(("set up.ladders", ladders))
        if "fight markers" in spec:

            def markers(state: GameState) -> c.Command:
                cells = [n.space_id(x) for x in _list(spec["fight markers"])]
                if None in cells:
                    raise TranscriptError("a fight marker lies on a space of the board")
                return c.SetFightMarkers(cells=[x for x in cells if x is not None])

            found.append(("set up.fight markers", markers))
        if "face up" in spec:
            for stack, token in by_name("face up").items():
                found.append((f"set up.face up.{stack}", self._face_up(stack, token)))
        heroes: dict[str, dict[str, Any]] = {}
        for field in CARD_KEYS:
            if field in spec:
                for hero, items in by_name(field).items():
                    heroes.setdefault(hero, {})[field] = items
        for hero, piles in heroes.items():
            found.append((f"set up.{'/'.join(piles)}.{hero}", self._cards(hero, piles)))
        return found

    def _place(self, name: str, where: object) -> Builder:
        n = self.names

        def place(state: GameState) -> c.Command:
            try:
                hero = n.hero_id(name)
            except TranscriptError:
                return c.SetStrigoiPosition(strigoi=n.strigoi_id(name), room=n.room_id(where))
            return c.SetHeroPosition(hero=hero, to=n.space_id(where))

        return place

    def _face_up(self, stack: str, token: object) -> Builder:
        def face_up(state: GameState) -> c.Command:
            if stack not in ("red", "grey"):
                raise TranscriptError(f"the face-up stacks are red and grey, got {stack!r}")
            if token is None:
                return c.SetFaceUp(stack=stack, token=None)  # type: ignore[arg-type]
            st = state.stacks[stack]  # type: ignore[index]
            among = [*([st.face_up] if st.face_up else []), *st.draw, *st.discard]
            chosen = self.names.token_id(token, among, f"{stack} token")
            return c.SetFaceUp(stack=stack, token=chosen)  # type: ignore[arg-type]

        return face_up

    def _cards(self, hero_name: str, piles: dict[str, Any]) -> Builder:
        def cards(state: GameState) -> c.Command:
            h = self._hero({"hero": hero_name}, state)
            fields: dict[str, list[str]] = {}
            taken: set[str] = set()
            for field, items in piles.items():
                chosen = []
                for name in _list(items):
                    item = self._component(state, h, field, name, taken)
                    taken.add(item)
                    chosen.append(item)
                fields[CARD_KEYS[field]] = chosen
            return c.SetCards(hero=h.hero, **fields)

        return cards

    def _component(
        self, state: GameState, h: HeroState, field: str, name: object, taken: set[str]
    ) -> str:
        """The component a set-up names: one already there first, then one of the hero's, then
        a free one (the stack, beside the board), then any."""
        catalog = self.rules.catalog
        others = [x for x in state.heroes if x is not h]
        if field in ("hand", "discard"):
            own = [*h.hand, *h.discard, *h.played, *h.pending]
            first = h.hand if field == "hand" else h.discard
            rewards = state.stacks["reward_card"]
            free = [*state.advanced_left, *rewards.draw, *rewards.discard]
            free += [x for x in catalog.hero_cards(h.hero) if x in state.removed]
            rest = [
                x
                for o in others
                for x in (*o.hand, *o.discard, *o.pending)
                if x not in catalog.hero_cards(o.hero)  # another hero's own cards never
            ]
            rest += [x for x in state.removed if catalog.reward_card(x) is not None]
            rest += [x for x in catalog.hero_cards(h.hero)]
            order = [first, own, free, rest]
            name_of: Callable[[str], str] = self.names.card
        elif field == "reward tokens":
            st = state.stacks["reward_token"]
            rest = [x for o in others for x in o.reward_tokens]
            order = [h.reward_tokens, st.draw, st.discard, rest]
            name_of = self.names.card
        else:
            st = state.stacks["wound"]
            rest = [x for o in others for x in o.wounds]
            order = [h.wounds, st.draw, st.discard, rest]
            name_of = self.names.token
        if not isinstance(name, str):
            raise TranscriptError(f"a component is named by a string, got {name!r}")
        for among in order:
            for item in among:
                if item not in taken and key(name_of(item)) == key(name):
                    return item
        known = sorted({name_of(x) for among in order for x in among})
        raise TranscriptError(f"no {field} component {name!r} left (known: {'; '.join(known)})")

    def _fix(self, step: Step, state: GameState) -> c.Command:
        kind = step["fix"]
        n = self.names
        if kind == "position":
            return c.SetHeroPosition(
                hero=self._hero(step, state).hero, to=n.space_id(step.get("to"))
            )
        if kind == "strigoi":
            return c.SetStrigoiPosition(
                strigoi=n.strigoi_id(step.get("strigoi")), room=n.room_id(step.get("room"))
            )
        if kind == "blood":
            return c.SetBlood(altar=int(step.get("altar", 0)), inferno=int(step.get("inferno", 0)))
        if kind == "add wound":
            h = self._hero(step, state)
            token = step.get("token")
            chosen = None if token is None else self.token(step, state, "wound", token)
            return c.AddWound(hero=h.hero, token=chosen)
        if kind == "remove wound":
            h = self._hero(step, state)
            return c.RemoveWound(hero=h.hero, token=self.wound(h, step.get("token"), "wound"))
        if kind == "rotation":
            room = n.room_id(step.get("room"))
            return c.SetRotation(room=room, rotation=n.rotation_id(room, step.get("turn")))
        raise TranscriptError(f"field 'fix': unknown fix {kind!r} (one of {', '.join(FIXES)})")


MODES = ("normal", "wild")


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise TranscriptError(f"a list, got {value!r}")
    return value


Reader = Callable[[StepReader, Step, GameState, HeroState], c.Command]


def _choose(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    cards = [x for x in h.hand if r.rules.is_action(x)]
    what = f"card of {r.names.hero(h.hero)}"
    return c.ChooseCard(hero=h.hero, card=r.owned(h, step["choose"], cards, what))


def _move(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    to = r.space(step, "move")
    if "stealth" in step:
        source = r.source(h, step["stealth"], "stealth")
        return c.Move(hero=h.hero, to=to, stealth=True, source=source)
    return c.Move(hero=h.hero, to=to)


def _draw(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    task = state.tasks[0] if state.tasks else None
    stealth = r.source(h, step["stealth"], "stealth") if "stealth" in step else None
    if step["draw"] is True:
        return c.Draw(hero=h.hero, stealth=stealth)
    if task is None:
        raise TranscriptError("nothing is drawn now")
    stack: StackName
    if task.kind in ("strigoi", "wound_draw"):
        stack = "strigoi" if task.kind == "strigoi" else "wound"
    else:
        stack = getattr(task, "stack", None) or "red"
    token = r.token(step, state, stack, step["draw"])
    return c.EnterDraw(hero=h.hero, token=token, stealth=stealth)


def _fight(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    return c.Fight(hero=h.hero, rewards=r.rewards(h, step["fight"]))


def _attack(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    mode = step.get("mode", "melee")
    if mode not in ("melee", "ranged"):
        raise TranscriptError(f"field 'mode': melee or ranged, got {mode!r}")
    return c.AttackStrigoi(
        hero=h.hero,
        strigoi=r.names.strigoi_id(step["attack"]),
        mode=mode,
        rewards=r.rewards(h, step.get("rewards")),
    )


def _protect(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    names = step["protect"]
    if not isinstance(names, list):
        raise TranscriptError("field 'protect': a list of sources ([] takes the wounds)")
    sources: list[str] = []
    for name in names:
        if isinstance(name, str) and key(name) == PLAYED_CARD:
            sources.append("card")
            continue
        found = [
            x
            for x in ability_sources(r.rules, h, "protection")
            if x != "card" and x.split(":")[0] not in {s.split(":")[0] for s in sources}
        ]
        sources.append(r.owned(h, name, found, "protection source"))
    return c.Protect(hero=h.hero, sources=sources)


def _discard(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    return c.DiscardForShock(hero=h.hero, card=r.owned(h, step["discard"], h.hand, "card in hand"))


def _leap(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    to = r.space(step, "leap")
    source = r.source(h, step.get("source"), "leap")
    if state.tasks and state.tasks[0].kind == "escape":
        return c.Leap(hero=h.hero, to=to, source=source)
    return c.UseLeap(hero=h.hero, to=to, source=source)


def _mechanics(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    text = step["mechanics"]
    room_name, _, turn = str(text).partition(":")
    room = r.names.room_id(room_name)
    return c.UseMechanics(
        hero=h.hero,
        room=room,
        rotation=r.names.rotation_id(room, turn),
        source=r.source(h, step.get("source"), "mechanics"),
    )


def _heal(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    picks = step["heal"]
    tokens: dict[str, str] = {}
    if isinstance(picks, dict):
        for who, wound in picks.items():
            healed = state.hero(r.names.hero_id(who))
            tokens[healed.hero] = r.wound(healed, wound, f"wound of {who}")
    return c.UseHeal(hero=h.hero, source=r.source(h, step.get("source"), "heal"), tokens=tokens)


def _swap(r: StepReader, step: Step, state: GameState, h: HeroState) -> c.Command:
    other = state.hero(r.names.hero_id(step["swap"]))
    give = [r.owned(h, x, h.hand, "reward card") for x in step.get("give", [])]
    take = [r.owned(other, x, other.hand, "reward card") for x in step.get("take", [])]
    return c.SwapRewards(hero=h.hero, other=other.hero, give=give, take=take)


def _simple(kind: Callable[..., c.Command]) -> Reader:
    return lambda r, step, state, h: kind(hero=h.hero)


def _with_source(kind: Callable[..., c.Command], ability: str) -> Reader:
    return lambda r, step, state, h: kind(
        hero=h.hero, source=r.source(h, step.get("source"), ability)
    )


_READERS: dict[str, Reader] = {
    "choose": _choose,
    "move": _move,
    "stay": _simple(c.Stay),
    "draw": _draw,
    "fight": _fight,
    "leave": _simple(c.LeaveMonster),
    "free monk": _simple(c.FreeMonk),
    "attack monk": _simple(c.AttackMonk),
    "attack": _attack,
    "skip fight": _simple(c.SkipFight),
    "protect": _protect,
    "discard": _discard,
    "relocate": lambda r, step, state, h: c.Relocate(hero=h.hero, to=r.space(step, "relocate")),
    "take marker": lambda r, step, state, h: c.PlaceFightMarker(
        hero=h.hero, take_from=r.space(step, "take marker")
    ),
    "leap": _leap,
    "fall": _simple(c.Fall),
    "mechanics": _mechanics,
    "heal": _heal,
    "recovery": _with_source(c.UseRecovery, "recovery"),
    "gates of hell": _with_source(c.UseGatesOfHell, "gates_of_hell"),
    "retrieval": lambda r, step, state, h: c.UseRetrieval(
        hero=h.hero,
        card=r.owned(h, step["retrieval"], h.discard, "reward card in the discard pile"),
        source=r.source(h, step.get("source"), "retrieval"),
    ),
    "pack": lambda r, step, state, h: c.UsePack(
        hero=h.hero, to=r.space(step, "pack"), source=r.source(h, step.get("source"), "pack")
    ),
    "swap": _swap,
    "rebel draw": _simple(c.RebelDraw),
    "proceed": _simple(c.Proceed),
}


def _name_of(names: Names, pile: str, item: str) -> str:
    return names.token(item) if pile == "wounds" else names.card(item)


# ----- commands to steps (export) ----------------------------------------------------------------
def step_of(command: c.Command, names: Names) -> Step:
    """The step a table would write for `command` (the inverse of `StepReader.command`)."""
    n = names
    hero = getattr(command, "hero", None)
    step: Step = {"hero": n.hero(hero)} if hero else {}

    def src(source: str) -> dict[str, str]:
        return {} if source == "card" else {"source": n.source(source)}

    def plays(rewards: list[c.RewardPlay]) -> list[str]:
        return [
            n.card(f"{p.item}:{p.mode}" if n.catalog.reward_card(p.item) else p.item)
            for p in rewards
        ]

    match command:
        case c.ChooseCard(card=card):
            step["choose"] = n.card(card)
        case c.Move(to=to, stealth=True, source=source):
            step |= {"move": n.space(to), "stealth": n.source(source)}
        case c.Move(to=to):
            step["move"] = n.space(to)
        case c.Stay():
            step["stay"] = True
        case c.Draw(stealth=stealth):
            step["draw"] = True
            if stealth is not None:
                step["stealth"] = n.source(stealth)
        case c.EnterDraw(token=token, stealth=stealth):
            step["draw"] = n.token(token)
            if stealth is not None:
                step["stealth"] = n.source(stealth)
        case c.Fight(rewards=rewards):
            step["fight"] = plays(rewards) or True
        case c.LeaveMonster():
            step["leave"] = True
        case c.FreeMonk():
            step["free monk"] = True
        case c.AttackMonk():
            step["attack monk"] = True
        case c.AttackStrigoi(strigoi=strigoi, mode=mode, rewards=rewards):
            step |= {"attack": n.strigoi(strigoi), "mode": mode}
            if rewards:
                step["rewards"] = plays(rewards)
        case c.SkipFight():
            step["skip fight"] = True
        case c.Protect(sources=sources):
            step["protect"] = [n.source(x) for x in sources]
        case c.DiscardForShock(card=card):
            step["discard"] = n.card(card)
        case c.Relocate(to=to):
            step["relocate"] = n.space(to)
        case c.PlaceFightMarker(take_from=cell):
            step["take marker"] = n.space(cell)
        case c.Leap(to=to, source=source) | c.UseLeap(to=to, source=source):
            step |= {"leap": n.space(to), **src(source)}
        case c.Fall():
            step["fall"] = True
        case c.UseMechanics(room=room, rotation=rotation, source=source):
            step |= {"mechanics": f"{n.room(room)}: {n.turn(room, rotation)}", **src(source)}
        case c.UseHeal(source=source, tokens=tokens):
            picks = {n.hero(who): n.token(token) for who, token in tokens.items()}
            step |= {"heal": picks or True, **src(source)}
        case c.UseRecovery(source=source):
            step |= {"recovery": True, **src(source)}
        case c.UseGatesOfHell(source=source):
            step |= {"gates of hell": True, **src(source)}
        case c.UseRetrieval(card=card, source=source):
            step |= {"retrieval": n.card(card), **src(source)}
        case c.UsePack(to=to, source=source):
            step |= {"pack": n.space(to), **src(source)}
        case c.SwapRewards(other=other, give=give, take=take):
            step |= {
                "swap": n.hero(other),
                "give": [n.card(x) for x in give],
                "take": [n.card(x) for x in take],
            }
        case c.RebelDraw():
            step["rebel draw"] = True
        case c.Proceed():
            step["proceed"] = True
        case c.SetHeroPosition(to=to):
            step |= {"fix": "position", "to": n.space(to)}
        case c.SetStrigoiPosition(strigoi=strigoi, room=room):
            step = {"fix": "strigoi", "strigoi": n.strigoi(strigoi), "room": n.room(room)}
        case c.SetBlood(altar=altar, inferno=inferno):
            step = {"fix": "blood", "altar": altar, "inferno": inferno}
        case c.AddWound(token=token):
            step |= {"fix": "add wound", "token": None if token is None else n.token(token)}
        case c.RemoveWound(token=token):
            step |= {"fix": "remove wound", "token": n.token(token)}
        case c.SetRotation(room=room, rotation=rotation):
            step = {"fix": "rotation", "room": n.room(room), "turn": n.turn(room, rotation)}
        case c.SetCards(hero=who):
            piles = {
                field: {n.hero(who): [_name_of(n, attr, x) for x in getattr(command, attr)]}
                for field, attr in CARD_KEYS.items()
                if getattr(command, attr) is not None
            }
            step = {"set up": piles}
        case c.SetFightMarkers(cells=cells):
            step = {"set up": {"fight markers": [n.space(x) for x in cells]}}
        case c.SetStrigoiWounds(strigoi=strigoi, wounds=wounds):
            step = {"set up": {"strigoi wounds": {n.strigoi(strigoi): wounds}}}
        case c.SetLadders(ladders=ladders):
            step = {"set up": {"ladders": [n.ladder(x) for x in ladders]}}
        case c.SetFaceUp(stack=stack, token=token):
            step = {"set up": {"face up": {stack: None if token is None else n.token(token)}}}
        case _:
            raise TranscriptError(f"no step for {type(command).__name__}")
    return step

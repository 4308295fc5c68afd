"""Changes several rules share, emitted as events on the working state: blood, milestones,
draws, abilities and rewards spent, wound icons, fight markers, rewards, wounds, collapses."""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.collapse import collapse
from companion.engine.components import AdvancedCard
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import (
    ALTAR_MAX,
    FIGHT_MARKERS,
    WOUNDS_TO_DEFEAT,
    GameRules,
    played_card,
    situation,
)
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import REFILLABLE, Phase, RewardStack, StackName
from companion.engine.game.queries import (
    ability_sources,
    relocate_task,
    reward_bonus,
    reward_card,
    wound_value,
)
from companion.engine.game.state import Cell
from companion.engine.game.tasks import (
    AnyTask,
    EscapeTask,
    MarkerTask,
    ProtectTask,
    RelocateTask,
    RewardDrawTask,
    StrigoiResolveTask,
)
from companion.errors import IllegalCommand

#: Recorded in `HeroState.used` once the played card's wound icon has wounded its hero.
WOUND_ICON = "wound_icon"
#: The advanced card that draws a reward card (R-ADV-2).
REBEL = "nighttime-rebel"


# ----- blood (R-BLD) -----------------------------------------------------------------------------
def lose_blood(em: Emitter, reason: str) -> None:
    """R-BLD-1: Altar -> Inferno, from the supply when the Altar is empty."""
    source: e.BloodPlace = "altar" if em.state.altar > 0 else "supply"
    if getattr(em.state, source) > 0:
        em(e.BloodMoved(source=source, target="inferno", reason=reason))


def gain_blood(em: Emitter, reason: str) -> None:
    if em.state.altar < ALTAR_MAX and em.state.supply > 0:
        em(e.BloodMoved(source="supply", target="altar", reason=reason))


# ----- advanced cards (R-ADV) --------------------------------------------------------------------
def _advanced(rules: GameRules, card_id: str) -> AdvancedCard:
    card = rules.card(card_id)
    assert isinstance(card, AdvancedCard)
    return card


def earn(em: Emitter, rules: GameRules, hero: str, milestone: str) -> None:
    """R-ADV: join an advanced card to the hand, never two identical ones."""
    state = em.state
    h = state.hero(hero)
    kinds = {"red": "fire_and_forgive", "grey": "fist_by_fist"}
    if milestone in kinds:
        kind = kinds[milestone]
        if any(_advanced(rules, x).kind == kind for x in h.advanced):
            return
        card = next((x for x in state.advanced_left if _advanced(rules, x).kind == kind), None)
    else:
        if milestone in state.firsts:
            return
        card = next(
            (x for x in state.advanced_left if _advanced(rules, x).earned_by == milestone), None
        )
    if card is not None:
        em(e.AdvancedEarned(hero=hero, card=card, first=milestone))
    elif milestone not in state.firsts and milestone not in kinds:
        em(e.MilestoneReached(first=milestone))


def nighttime_rebel(rules: GameRules, em: Emitter, hero: str) -> None:
    """R-ADV-2: when a player gets a third reward card, the one with fewest gets the Rebel."""
    state = em.state
    count = {h.hero: sum(1 for x in h.hand if reward_card(rules, x)) for h in state.heroes}
    if count[hero] != 3 or len(state.heroes) < 2:
        return
    others = [h for h in state.heroes if h.hero != hero]
    fewest = min(
        others,
        key=lambda h: (count[h.hero], ((card := played_card(rules, h)) and card.initiative) or 0),
    )
    earn(em, rules, fewest.hero, "fewest_reward_cards_when_another_gets_third")


# ----- stacks ------------------------------------------------------------------------------------
def draw_token(em: Emitter, rules: GameRules, stack: StackName, chosen: str | None) -> str | None:
    """Take the top token (digital) or the token the table drew (physical-first)."""
    st = em.state.stacks[stack]
    if chosen is not None:
        if st.face_up is not None and chosen != st.face_up:
            raise IllegalCommand(
                f"token {chosen!r} cannot be drawn: {st.face_up!r} lies face up on the {stack} "
                "stack and comes next (R-ENC-6)"
            )
        if chosen != st.face_up and chosen not in st.draw:
            if st.draw or chosen not in st.discard or stack not in REFILLABLE:
                raise IllegalCommand(
                    f"token {chosen!r} cannot come from the {stack} stack now: it is not in it"
                )
            em(e.StackReshuffled(stack=stack, order=sorted(st.discard)))
        em(e.TokenDrawn(stack=stack, token=chosen))
        return chosen
    if st.face_up is not None:
        token = st.face_up
    else:
        if not st.draw:
            if not st.discard or stack not in REFILLABLE:
                return None
            order = sorted(st.discard)
            em.random().shuffle(order)
            em(e.StackReshuffled(stack=stack, order=order))
        token = em.state.stacks[stack].draw[-1]
    em(e.TokenDrawn(stack=stack, token=token))
    return token


def reward(
    rules: GameRules, em: Emitter, hero: str, stack: RewardStack, tasks: list[AnyTask]
) -> None:
    """Draw a reward token or card for `hero` now (digital) or ask the table (physical)."""
    if stack in rules.options.physical:
        if em.state.stacks[stack].draw or (
            stack == "reward_token" and em.state.stacks[stack].discard
        ):
            tasks.append(RewardDrawTask(hero=hero, stack=stack))
        return
    item = draw_token(em, rules, stack, None)
    if item:
        em(e.RewardTaken(hero=hero, stack=stack, item=item))
        if stack == "reward_card":
            nighttime_rebel(rules, em, hero)


# ----- abilities and rewards spent ---------------------------------------------------------------
def spend_ability(
    rules: GameRules,
    em: Emitter,
    cmd: c.Command,
    hero: str,
    ability: str,
    source: str,
    discard: bool | None = None,
) -> None:
    """Use one `ability` from `source`, or refuse the command (`discard`: as `ability_sources`)."""
    if source not in ability_sources(rules, em.state.hero(hero), ability, discard=discard):
        raise refuse(cmd, f"{source!r} gives {hero} no {ability.replace('_', ' ')} now")
    if source == "card":
        em(e.AbilityUsed(hero=hero, ability=ability))
    elif ":" in source:
        item, mode = source.split(":")
        em(e.RewardSpent(hero=hero, item=item, kind="card", mode=mode))  # type: ignore[arg-type]
    elif source in em.state.hero(hero).reward_tokens:
        em(e.RewardSpent(hero=hero, item=source, kind="token"))
    else:
        em(e.CardPlayed(hero=hero, card=source, reason=ability))


def spend_rewards(
    rules: GameRules,
    em: Emitter,
    hero: str,
    plays: Iterable[c.RewardPlay],
    ranged: bool,
    cmd: c.Command,
) -> int:
    """Play reward cards and tokens into a fight; their total bonus (R-REW, R-HIT-2)."""
    bonus, spent = reward_bonus(rules, em.state.hero(hero), plays, ranged, cmd)
    for event in spent:
        em(event)
    return bonus


# ----- after a fight -----------------------------------------------------------------------------
def wound_icon(
    rules: GameRules,
    em: Emitter,
    hero: str,
    tasks: list[AnyTask],
    rewards: Iterable[c.RewardPlay] = (),
) -> None:
    """R-WND-3: a wound icon wounds the fighting hero, unblockable. The played card's icon once
    per round (a counterattack is a fight too: Decision); a reward card's whenever it is used
    in a fight."""
    h = em.state.hero(hero)
    wounds = 0
    card = played_card(rules, h)
    if card is not None and card.wound_icon and WOUND_ICON not in h.used:
        em(e.AbilityUsed(hero=hero, ability=WOUND_ICON))
        wounds += 1
    for play in rewards:
        item = reward_card(rules, play.item)
        wounds += item is not None and item.wound_icon
    if wounds:
        tasks.append(ProtectTask(hero=hero, wounds=wounds, protectable=False, cause=WOUND_ICON))


def fight_marker(
    rules: GameRules, em: Emitter, hero: str, tasks: list[AnyTask] | None = None
) -> None:
    """R-ENC-4: a fight marker on the hero's space; all six out: take one elsewhere."""
    state = em.state
    tasks = tasks if tasks is not None else []
    at = state.hero(hero).at
    if at is not None and at not in state.fight_markers:
        if len(state.fight_markers) < FIGHT_MARKERS:
            em(e.FightMarkerPlaced(cell=at))
        else:
            room = rules.fortress.room_at(at)
            others = {h.at for h in state.heroes if h.hero != hero}
            allowed = [
                m
                for m in state.fight_markers
                if rules.fortress.room_at(m) != room and m not in others
            ] or list(state.fight_markers)
            tasks.append(MarkerTask(hero=hero, cells=allowed))
    if tasks:
        em.queue(*tasks)


def settle_cell(em: Emitter, task: RelocateTask | MarkerTask, cell: Cell) -> None:
    """Finish a "choose one of these cells" task: relocate the hero or move a fight marker."""
    hero = task.hero
    if isinstance(task, RelocateTask):
        em(e.HeroMoved(hero=hero, to=cell))  # placed, then the task is done
        em.done()
        return
    em.done()
    at = em.state.hero(hero).at
    if at is not None:
        em(e.FightMarkerPlaced(cell=at, taken_from=cell))


# ----- wounds (R-WND) ----------------------------------------------------------------------------
def take_wound(
    rules: GameRules, em: Emitter, hero: str, token: str, attacker: str | None
) -> tuple[bool, bool]:
    """One drawn wound token (R-WND-1, R-WND-2): (the hero is defeated, it was a Shock)."""
    em(e.WoundTaken(hero=hero, token=token))
    if attacker is not None:
        earn(em, rules, hero, "first_wounded_by_strigoi")
    if wound_value(rules, em.state.hero(hero)) >= WOUNDS_TO_DEFEAT:
        em(e.HeroDefeated(hero=hero, tokens=list(em.state.hero(hero).wounds)))
        lose_blood(em, f"{hero} took a third wound")
        earn(em, rules, hero, "first_hero_defeated")
        # R-ADV-2: the player whose card moved the Strigoi; in a curse, the player who went
        # first, whose card the curse used (Decision)
        state = em.state
        active = state.turn_order[0] if state.phase == Phase.CURSE else state.active_hero
        if attacker is not None and active is not None and active != hero:
            earn(em, rules, active, "card_let_strigoi_deal_comrades_third_wound")
        return True, False
    return False, rules.catalog.wound(token).effect == "shock"


# ----- the Supreme Strigoi -----------------------------------------------------------------------
def collapse_under(rules: GameRules, em: Emitter, hero: str) -> None:
    """R-COL: the letter of the wounding hero's card, read on the centre room's books."""
    card = played_card(rules, em.state.hero(hero))
    if card is None:
        return
    fall = collapse(rules.fortress, situation(rules, em.state), card.letter)
    if fall.room is None:
        return
    room = fall.room
    platform = rules.fortress.platforms[room].cells
    victims = [h for h in sorted(em.state.heroes, key=lambda h: h.seat) if h.at in platform]
    # the heroes on the falling platform escape or fall (R-COL-2), asked with the collapse itself
    # so no state shows them on a fallen platform unasked
    escapes = [EscapeTask(hero=h.hero, room=room) for h in victims]
    if escapes:
        em.queue(*escapes)
    em(e.PlatformCollapsed(room=room))
    if fall.strigoi_moved_to is not None:
        # R-COL-3 Decision: a hero on the centre the Supreme moves to steps off to a free ladder
        # (else stairs) of the player's choice, without wound or blood loss.
        centre = rules.fortress.centre(fall.strigoi_moved_to)
        for h in [h for h in em.state.heroes if h.at == centre]:
            em.queue(relocate_task(rules, em.state, h.hero, ladders_first=True))
            em(e.HeroMoved(hero=h.hero, to=None))
        for name, where in list(em.state.strigoi.items()):
            if where == room:
                em(e.StrigoiMoved(strigoi=name, room=fall.strigoi_moved_to))


def supreme_steps(em: Emitter) -> None:
    """The Supreme moves without a token (R-TEL-1); with no Strigoi on the board, nothing does."""
    if "supreme" in em.state.strigoi:
        em.queue(StrigoiResolveTask(strigoi="supreme"))


__all__ = [
    "REBEL",
    "WOUND_ICON",
    "collapse_under",
    "draw_token",
    "earn",
    "fight_marker",
    "gain_blood",
    "lose_blood",
    "nighttime_rebel",
    "reward",
    "settle_cell",
    "spend_ability",
    "spend_rewards",
    "supreme_steps",
    "take_wound",
    "wound_icon",
]

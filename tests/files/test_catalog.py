"""The component catalog (R-CMP): counts, known printed values, clear errors."""

from __future__ import annotations

import copy
import json

import pytest

from companion.catalog import load_catalog
from companion.engine.components import CatalogError, parse_catalog
from tests.conftest import ROOT

DATA = json.loads((ROOT / "companion" / "data" / "catalog.json").read_text())


@pytest.mark.rule("R-CMP-3", "R-CMP-6", "R-CMP-4")
def test_counts_follow_the_component_list() -> None:  # R-CMP-3 .. R-CMP-6
    catalog = load_catalog()
    assert len(catalog.action_cards) == 30
    assert len(catalog.advanced_cards) == 17
    assert len(catalog.encounter_tokens.red) == 21 and len(catalog.encounter_tokens.grey) == 20
    assert len(catalog.wound_tokens) == 15 and len(catalog.reward_tokens) == 10
    for hero in ("attila", "falk_maria", "matthew", "charles", "roel"):  # R-CMP-4
        titles = [c.title for c in catalog.action_cards if c.hero == hero]
        assert len(titles) == 6
    shared = set.intersection(
        *(
            {c.title for c in catalog.action_cards if c.hero == h}
            for h in ("attila", "falk_maria", "matthew", "charles", "roel")
        )
    )
    assert len(shared) == 4  # four shared titles, two personal ones


@pytest.mark.rule("R-CMP-4", "R-CMP-6", "R-CMP-5")
def test_values_the_rulebook_prints_in_text() -> None:
    catalog = load_catalog()
    moon = catalog.card("roel/when-the-moon-shines-red")
    assert (moon.movement, moon.letter) == (5, "E")  # R-CMP-4
    assert catalog.card("roel/prayer-in-the-dark").letter == "A"
    assert catalog.strigoi["supreme"].strength == 9  # R-CMP-6
    kinds = [c.kind for c in catalog.advanced_cards]  # R-CMP-5
    assert kinds.count("fire_and_forgive") == 6 and kinds.count("fist_by_fist") == 6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["action_cards"].pop(), "action_cards: R-CMP lists 30, found 29"),
        (lambda d: d["action_cards"][0].update(letter="G"), "action_cards[0].letter"),
        (lambda d: d["action_cards"][0].update(abilities=["flying"]), "action_cards[0].abilities"),
        (lambda d: d["wound_tokens"][0].update(effect="ability"), "wound_tokens[0].ability"),
        (lambda d: d["strigoi"].pop("supreme"), "strigoi: missing ['supreme']"),
        (
            lambda d: d["reward_tokens"][1].update(id=d["reward_tokens"][0]["id"]),
            "reward_tokens[1].id",
        ),
        (lambda d: d.update(format="nope"), "format"),
    ],
)
def test_bad_catalog_names_the_path(change: object, message: str) -> None:
    data = copy.deepcopy(DATA)
    change(data)  # type: ignore[operator]
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data)
    assert message in str(caught.value)

from __future__ import annotations

import json

from crossing.handlers import rules

from tests.handlers.conftest import load_event


def test_rules_lists_every_rule_set_with_its_layout(context):
    response = rules.handler(load_event("rules_get"), context)
    assert response["statusCode"] == 200
    body = json.loads(response["body"])
    names = [rule_set["name"] for rule_set in body["rule_sets"]]
    assert names == ["crossplay", "scrabble", "wwf", "duel"]
    crossplay = body["rule_sets"][0]
    assert crossplay["title"] == "Crossplay"
    assert len(crossplay["layout"]) == 15
    assert all(len(row) == 15 for row in crossplay["layout"])
    assert crossplay["layout"][7][7] == "*"
    assert set("".join(crossplay["layout"])) <= set(body["layout_key"])
    assert crossplay["rack_bonus"] == 40
    assert crossplay["rack_bonus_name"] == "sweep"
    values = {tile["letter"]: tile["value"] for tile in crossplay["tiles"]}
    assert values["Q"] == 10
    assert len(values) == 26


def test_two_letter_words_come_from_the_word_list(context):
    body = json.loads(rules.handler(load_event("rules_get"), context)["body"])
    words = body["two_letter_words"]
    assert "OX" in words
    assert "XI" in words
    assert all(len(word) == 2 and word.isupper() for word in words)
    # ENABLE2K predates these; the about page says so.
    assert "QI" not in words
    assert body["word_list"]["name"] == "ENABLE2K"

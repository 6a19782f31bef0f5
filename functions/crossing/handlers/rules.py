"""GET /api/rules: the rule sets as JSON, so the Solver page draws boards from the engine's data.

One source of truth: premium squares, tile values and counts, bonuses and the
two-letter words all come from ``crossing.tiles``; the page keeps no copy.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from crossing.game_files import default_lexicon
from crossing.handlers.http import answers_json, json_response
from crossing.tiles.rules import LETTERS, RULE_SETS, RuleSet

logger = Logger()

# What the page calls each rule set; the keys are the engine's names.
TITLES = {
    "crossplay": "Crossplay",
    "scrabble": "Scrabble",
    "wwf": "Words-with-Friends-style",
    "duel": "Duel",
}

WORD_LIST = {
    "name": "ENABLE2K",
    "licence": "public domain",
    "missing_examples": ["QI", "ZA", "OK"],
}

# The layout strings keep the engine's one-character key; the page reads it from here.
LAYOUT_KEY = {
    ".": "plain",
    "d": "double letter",
    "t": "triple letter",
    "D": "double word",
    "T": "triple word",
    "*": "centre star",
}


def rule_set_json(rules: RuleSet) -> dict[str, Any]:
    return {
        "name": rules.name,
        "title": TITLES.get(rules.name, rules.name),
        "layout": list(rules.layout),
        "tiles": [
            {"letter": letter, "value": rules.values[letter], "count": rules.counts[letter]}
            for letter in sorted(rules.values)
        ],
        "blanks": rules.blanks,
        "bag_size": rules.bag_size,
        "rack_size": rules.rack_size,
        "rack_bonus": rules.rack_bonus,
        "rack_bonus_name": rules.rack_bonus_name,
        "star_multiplies": rules.star_multiplies,
        "tiles_used_bonus": {str(k): v for k, v in sorted(rules.tiles_used_bonus.items())},
        "words_formed_bonus": {str(k): v for k, v in sorted(rules.words_formed_bonus.items())},
    }


def two_letter_words() -> list[str]:
    # Asked of the engine's own lexicon, so this page lists exactly the hooks the solver accepts.
    lexicon = default_lexicon()
    return [
        first + second for first, second in product(LETTERS, repeat=2) if first + second in lexicon
    ]


@cache
def rules_payload() -> dict[str, Any]:
    return {
        "rule_sets": [rule_set_json(rules) for rules in RULE_SETS.values()],
        "layout_key": LAYOUT_KEY,
        "two_letter_words": two_letter_words(),
        "word_list": WORD_LIST,
    }


@answers_json
@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    response = json_response(200, rules_payload())
    # The rules change only with a deploy; let the CDN and the browser keep them a while.
    response["headers"]["cache-control"] = "public, max-age=300"
    return response

"""A Solver request as it arrives from outside (the HTTP body, the CLI's flags), checked
once: its shape and types, by pydantic, into the engine's ``SolveRequest``.

This is the one place a request's fields are checked; ``crossing.tiles.api`` trusts
them and judges only the letters (rack tiles, board squares, words, a play's
legality). Each field's description is the end of the sentence a bad value gets.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from crossing.tiles.api import DEFAULT_TOP, BadRequest, PlayAsked, SolveRequest
from crossing.tiles.rules import RULE_SETS

TRUE_OR_FALSE = "true or false"


class InvalidRequest(BadRequest):
    """A request of the wrong shape: a missing or unknown field, or a wrong type."""


def _known_rules(name: str) -> str:
    if name not in RULE_SETS:
        raise ValueError("not a rule set")
    return name


class PlayBody(BaseModel):
    """One play to check and score: where it starts, which way, and what it spells."""

    model_config = ConfigDict(extra="forbid", strict=True)

    row: int = Field(ge=1, le=15, description="a whole number from 1 to 15")
    col: int = Field(ge=1, le=15, description="a whole number from 1 to 15")
    direction: Literal["across", "down"] = Field(description="across or down")
    word: str = Field(
        pattern=r"^[A-Za-z]{1,15}$",
        description="1 to 15 letters A-Z, lower case for a blank",
    )


class SolveBody(BaseModel):
    """The shape of a solve request."""

    model_config = ConfigDict(extra="forbid", strict=True)

    rules: Annotated[str, AfterValidator(_known_rules)] = Field(
        description=f"one of {', '.join(RULE_SETS)}"
    )
    rack: str = Field(max_length=32, description="text of letters A-Z, ? for a blank")
    board: list[Annotated[str, Field(max_length=32)]] | None = Field(
        default=None, max_length=32, description="a list of 15 rows of 15 squares"
    )
    # A custom word list is bounded by the body size limit, not a word count.
    words: list[str] | None = Field(default=None, description="a list of words")
    top: int | None = Field(
        default=None, ge=1, le=1000, description="a whole number from 1 to 1000"
    )
    bonus: bool = Field(default=True, description=TRUE_OR_FALSE)
    # Every play, grouped by blank choices and without breakdowns (the page's full list).
    all: bool | None = Field(default=None, description=TRUE_OR_FALSE)
    play: PlayBody | None = Field(
        default=None, description="an object with row, col, direction and word"
    )

    def to_request(self) -> SolveRequest:
        play = self.play
        return SolveRequest(
            rules=self.rules,
            rack=self.rack,
            board=self.board,
            words=self.words,
            top=DEFAULT_TOP if self.top is None else self.top,
            bonus=self.bonus,
            all=bool(self.all),
            play=None if play is None else PlayAsked(play.row, play.col, play.direction, play.word),
        )


def read_request(data: Any) -> SolveRequest:
    """``data`` (parsed JSON, or the CLI's flags) as a request; ``InvalidRequest`` with
    one sentence naming the first thing wrong with its shape."""
    try:
        return SolveBody.model_validate(data).to_request()
    except ValidationError as error:
        raise InvalidRequest(describe(error)) from None


def describe(error: ValidationError) -> str:
    """One sentence naming the first problem, in the request's own field names."""
    first = error.errors(include_url=False)[0]
    names = [str(part) for part in first["loc"] if not isinstance(part, int)]
    where = ".".join(names)
    if first["type"] == "missing":
        return f"The field '{where}' is required."
    if first["type"] == "extra_forbidden":
        return f"The field '{where}' is not part of a solve request."
    if not names:
        return "The request body must be a JSON object."
    return f"The field '{where}' must be {_must(names)}."


def _must(names: list[str]) -> str:
    """What the field at ``names`` must be: its description on the model."""
    fields = SolveBody.model_fields
    if len(names) > 1 and names[0] == "play":
        fields, names = PlayBody.model_fields, names[1:]
    field = fields.get(names[0])
    return (field.description if field else None) or "of the documented type"

"""The WebSocket protocol: every client action and every server message.

Client messages are JSON objects whose ``action`` is the API Gateway route key;
each carries the player's own ``seq`` (a counter the client increases), so a
message delivered twice is applied once. Server messages carry a ``type``; room
messages carry the room ``version``. See docs/protocol.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from crossing.crossword.commands import Refused
from crossing.crossword.deal import PUZZLE_ID_LENGTH, PUZZLE_ID_PATTERN
from crossing.crossword.sizes import Size
from crossing.rooms.push_endpoints import check_endpoint
from crossing.rooms.room import BOT_LEVELS, NAME_LIMIT, Mode, clean_name
from crossing.rooms.view_models import (
    DuelGameShown,
    DuelShown,
    OwnSeekShown,
    SeekShown,
    shown_as,
)

# A Start carries the host's dealt list (DEALT_LIMIT ids of up to 20 characters, about
# 18 KB at 1,000 of the packs' 15); every other message fits in a few hundred bytes.
# Well under API Gateway's 32 KB frame.
MAX_MESSAGE_BYTES = 24 * 1024

MAX_SEQ = 2**53  # the largest whole number a JavaScript client counts exactly

# Every model's validator and serializer are built at its first use, not at import
# (``defer_build``): most cold starts use few of them, and $disconnect or the timer none
# of the client's (docs/performance.md, 2026-12-07).
_LATE = ConfigDict(defer_build=True)

# Every client model is strict: a square is a JSON integer, not "0", 1.0 or true; a
# flag is a JSON boolean; text is a JSON string.
_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

Name = Annotated[str, Field(min_length=1, max_length=4 * NAME_LIMIT), AfterValidator(clean_name)]
Square = Annotated[int, Field(ge=0, le=400)]


class _Message(BaseModel):
    model_config = _STRICT
    seq: int = Field(ge=0, le=MAX_SEQ)


def echoed_seq(data: Any) -> int | None:
    """The frame's ``seq`` to repeat in an error, only if it is one (else the error has none).

    >>> echoed_seq({"seq": 7}), echoed_seq({"seq": "abc"}), echoed_seq({"seq": True})
    (7, None, None)
    """
    seq = data.get("seq") if isinstance(data, dict) else None
    ok = isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= MAX_SEQ
    return seq if ok else None


class Hello(_Message):
    """First contact. With a known player and token, the seat comes back; with an
    account's refresh token, the connection is that account's player."""

    action: Literal["hello"]
    player: str | None = Field(default=None, max_length=64)
    token: str | None = Field(default=None, max_length=128)
    refresh: str | None = Field(default=None, min_length=1, max_length=3000)


AccountName = Annotated[str, Field(min_length=3, max_length=20, pattern=r"^[A-Za-z0-9_-]+$")]
Password = Annotated[str, Field(min_length=8, max_length=128, repr=False)]


class SignUp(_Message):
    action: Literal["sign_up"]
    name: AccountName
    password: Password


class SignIn(_Message):
    action: Literal["sign_in"]
    name: AccountName
    password: Password


# --- Duel ---------------------------------------------------------------------------------

Limit = Literal[180_000, 300_000, 600_000, 1_200_000, None]  # duel.lobby.TIME_LIMITS_MS
SeekId = Annotated[str, Field(min_length=3, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]


class DuelSeek(_Message):
    action: Literal["duel_seek"]
    limit: Limit
    private: bool = False
    name: Name | None = None  # a guest's name to show; an account shows its own


class DuelCancel(_Message):
    action: Literal["duel_cancel"]
    seek: SeekId


class DuelAccept(_Message):
    action: Literal["duel_accept"]
    seek: SeekId
    token: str | None = Field(default=None, max_length=64)
    name: Name | None = None


class DuelBot(_Message):
    action: Literal["duel_bot"]
    level: Literal["easy", "medium", "hard"]
    limit: Limit
    name: Name | None = None


class DuelOpen(_Message):
    action: Literal["duel_open"]
    game: SeekId


class DuelWatch(_Message):
    """A watch screen follows a Duel: both sides' public view, never a rack."""

    action: Literal["duel_watch"]
    game: SeekId


class Tile(BaseModel):
    model_config = _STRICT
    row: int = Field(ge=0, le=14)
    col: int = Field(ge=0, le=14)
    letter: str = Field(pattern=r"^[A-Za-z]$")


class DuelPlay(_Message):
    action: Literal["duel_play"]
    tiles: list[Tile] = Field(min_length=1, max_length=7)


class DuelSwap(_Message):
    action: Literal["duel_swap"]
    letter: str = Field(pattern=r"^[A-Za-z]$")


class Host(_Message):
    action: Literal["host"]
    name: Name
    solo: bool = False


class JoinByCode(_Message):
    action: Literal["join"]
    code: str = Field(min_length=4, max_length=12)
    name: Name


class Watch(_Message):
    action: Literal["watch"]
    code: str = Field(min_length=4, max_length=12)


class Rename(_Message):
    action: Literal["rename"]
    name: Name


class AddBot(_Message):
    action: Literal["add_bot"]
    level: Literal[BOT_LEVELS]  # type: ignore[valid-type]  # pydantic reads the tuple's values


class RemoveBot(_Message):
    action: Literal["remove_bot"]
    bot: str = Field(max_length=16)


class Choose(_Message):
    action: Literal["choose"]
    # An enum takes its value as a plain string: strict mode would want the Python enum.
    mode: Mode = Field(strict=False)
    size: Size = Field(strict=False)


# A puzzle's id as the packs give it ("cw-" and twelve hex digits of its grid's hash).
PuzzleId = Annotated[str, Field(max_length=PUZZLE_ID_LENGTH, pattern=PUZZLE_ID_PATTERN)]
# How many puzzles of one size a host's phone remembers dealing: the largest pack
# (1,000 Minis) goes round once before any comes back.
DEALT_LIMIT = 1000


class Start(_Message):
    action: Literal["start"]
    pick_up: bool = False  # pick the host's saved Together board back up
    replace_saved: bool = False  # confirmed: a new puzzle replaces the saved board
    # The puzzles of the room's size this phone has dealt, oldest first.
    dealt: list[PuzzleId] = Field(default_factory=list, max_length=DEALT_LIMIT)


class PickUp(_Message):
    """From the home screen: pick up the race you left off on your own."""

    action: Literal["pick_up"]


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True, defer_build=True)
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class Subscription(BaseModel):
    """A browser's PushSubscription, as ``subscription.toJSON()`` gives it."""

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True, defer_build=True)
    endpoint: Annotated[str, Field(min_length=12, max_length=1024), AfterValidator(check_endpoint)]
    keys: SubscriptionKeys


class Notify(_Message):
    """Turn notifications on (the browser's subscription) or off (null) for this player."""

    action: Literal["notify"]
    subscription: Subscription | None


class TypeLetter(_Message):
    action: Literal["type"]
    square: Square
    letter: str = Field(min_length=1, max_length=1)


class ClearSquare(_Message):
    action: Literal["clear"]
    square: Square


class Simple(_Message):
    """Actions with nothing but a name."""

    action: Literal[
        "to_game",
        "to_lobby",
        "undo",
        "done",
        "take_back",
        "pause",
        "resume",
        "end",
        "close",
        "tick",
        "snapshot",
        "duel_lobby",
        "duel_games",
        "duel_skip",
        "duel_resign",
    ]


ClientMessage = Annotated[
    Hello
    | Host
    | JoinByCode
    | Watch
    | Rename
    | AddBot
    | RemoveBot
    | Choose
    | Start
    | PickUp
    | Notify
    | SignUp
    | SignIn
    | DuelSeek
    | DuelCancel
    | DuelAccept
    | DuelBot
    | DuelOpen
    | DuelWatch
    | DuelPlay
    | DuelSwap
    | TypeLetter
    | ClearSquare
    | Simple,
    Field(discriminator="action"),
]
if TYPE_CHECKING:
    CLIENT_MESSAGE: TypeAdapter[Any]
    """Reads any client frame into its model (``ClientMessage``)."""


def __getattr__(name: str) -> Any:
    """``CLIENT_MESSAGE``, built at its first use (the frame models' one real cost): a
    module attribute from then on. Two threads building it at once build the same."""
    if name == "CLIENT_MESSAGE":
        adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)
        globals()[name] = adapter
        return adapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MESSAGE_MODELS: tuple[type[_Message], ...] = (
    Hello,
    Host,
    JoinByCode,
    Watch,
    Rename,
    AddBot,
    RemoveBot,
    Choose,
    Start,
    PickUp,
    Notify,
    SignUp,
    SignIn,
    DuelSeek,
    DuelCancel,
    DuelAccept,
    DuelBot,
    DuelOpen,
    DuelWatch,
    DuelPlay,
    DuelSwap,
    TypeLetter,
    ClearSquare,
    Simple,
)
"""Every client message model, the members of ``ClientMessage``."""


def actions_of(model: type[_Message]) -> tuple[str, ...]:
    return get_args(model.model_fields["action"].annotation)


ACTIONS = sorted(a for model in MESSAGE_MODELS for a in actions_of(model))


# --- server messages ----------------------------------------------------------------------


class _ServerMessage(BaseModel):
    model_config = _LATE


class Welcome(_ServerMessage):
    type: Literal["welcome"] = "welcome"
    player: str
    token: str
    saved: dict[str, bool]  # which saved games this player can pick up: race, together
    room: str | None = None  # the room this player is seated in, if any
    push_key: str | None = None  # the VAPID public key to subscribe with; None: no Web Push
    notify: bool = False  # this player has notifications on (a subscription is stored)
    # {name, rating, games, provisional} when signed in to an account (games: rated games
    # finished; provisional until elo.PROVISIONAL_GAMES)
    account: dict[str, Any] | None = None
    duel: str | None = None  # an unfinished Duel this player is in


class SignedIn(_ServerMessage):
    type: Literal["signed_in"] = "signed_in"
    player: str
    name: str
    rating: int
    games: int  # rated games finished
    provisional: bool  # fewer than elo.PROVISIONAL_GAMES: a game against it moves no rating
    refresh: str


class LobbyMessage(_ServerMessage):
    """The Duel games waiting for an opponent, and the viewer's own."""

    type: Literal["lobby"] = "lobby"
    seeks: Annotated[list[dict[str, Any]], AfterValidator(shown_as(list[SeekShown]))]
    mine: Annotated[dict[str, Any] | None, AfterValidator(shown_as(OwnSeekShown))]
    now: int


class DuelGames(_ServerMessage):
    """A signed-in player's finished Duel games, newest first (My games); a guest's is
    empty."""

    type: Literal["duel_games"] = "duel_games"
    games: Annotated[list[dict[str, Any]], AfterValidator(shown_as(list[DuelGameShown]))]
    now: int


class DuelMessage(_ServerMessage):
    """A Duel as this connection may see it, whole (it is small and changes by turns)."""

    type: Literal["duel"] = "duel"
    version: int
    game: Annotated[dict[str, Any], AfterValidator(shown_as(DuelShown))]


class RoomMessage(_ServerMessage):
    """The room as this connection may see it: all of it (``full``), or else a JSON Merge
    Patch (RFC 7386) of what changed since the previous version."""

    type: Literal["room"] = "room"
    version: int
    full: bool
    room: dict[str, Any]


class Ack(_ServerMessage):
    """The sender's message was applied (or had been already: ``duplicate``)."""

    type: Literal["ack"] = "ack"
    seq: int
    version: int | None = None
    duplicate: bool = False
    cursor: int | None = None  # after undo: the square the change was on


def ack(seq: int, version: int | None, duplicate: bool, cursor: int | None) -> dict[str, Any]:
    """An ``Ack`` as the dict it dumps to, for the acks of a room's letters: the model,
    built and dumped, was 4 % of a letter's CPU in a profile of a Large room."""
    return {"type": "ack", "seq": seq, "version": version, "duplicate": duplicate, "cursor": cursor}


class Error(_ServerMessage):
    type: Literal["error"] = "error"
    code: str
    message: str
    seq: int | None = None


def refused(refusal: Refused, seq: int | None) -> Error:
    """The error a refusal answers its frame with."""
    return Error(code=refusal.code, message=str(refusal), seq=seq)


# --- refusals of malformed frames, in a player's words ----------------------------------------

_FIELD_WORDS = {
    "seq": "the message's number (seq)",
    "square": "the square",
    "letter": "the letter",
    "name": "the name",
    "code": "the room code",
    "row": "the row",
    "col": "the column",
    "tiles": "the tiles",
    "level": "the bot's level",
    "mode": "the mode",
    "size": "the size",
    "limit": "the time limit",
    "subscription": "the notification subscription",
    "endpoint": "the notification address",
}


def explain(error: Any) -> str:
    """One sentence for a player about the first thing wrong with a frame (never pydantic's
    wording, which names types and limits a player cannot act on)."""
    first = error.errors()[0]
    kind = first.get("type", "")
    loc = [str(x) for x in first.get("loc", ()) if not isinstance(x, int)]
    if kind in ("union_tag_invalid", "union_tag_not_found") or loc[-1:] == ["action"]:
        return "Unknown or missing action."
    if kind == "string_unicode":  # a lone surrogate, in a value or a key
        return "That message holds text that is not valid Unicode."
    loc = loc[1:]  # the first is the union's tag: the action itself, valid by now
    if not loc:
        return "A message is a JSON object that names its action."
    field = loc[-1]
    # A key the client made up is repeated only if it reads as one (no control or
    # bidirectional characters, not a page long).
    named = f"'{field}'" if field.isidentifier() and len(field) <= 24 else "a field"
    what = _FIELD_WORDS.get(field, named)
    if kind == "value_error":  # our own validators speak in sentences already
        return str(first.get("ctx", {}).get("error", "")) or _wrong(what)
    if kind == "missing":
        return f"That message is missing {what}."
    if field == "dealt":
        return (
            f"The list of puzzles dealt holds at most {DEALT_LIMIT} puzzle ids, "
            "each like cw-0123456789ab."
        )
    if kind == "extra_forbidden":
        if named == "a field":
            return "That message has a field that is not part of it."
        return f"{named} is not part of that message."
    if kind.startswith("int") or kind in ("greater_than_equal", "less_than_equal"):
        return f"{what[0].upper()}{what[1:]} must be a whole number in range."
    if kind.startswith(("string", "str")):
        return f"{what[0].upper()}{what[1:]} is not text of the right length or form."
    if kind.startswith("bool"):
        return f"{what[0].upper()}{what[1:]} must be true or false."
    return _wrong(what)


def _wrong(what: str) -> str:
    return f"That message has something wrong with {what}."

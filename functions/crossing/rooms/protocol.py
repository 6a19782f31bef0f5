"""The WebSocket protocol: every client action and every server message.

Client messages are JSON objects whose ``action`` is the API Gateway route key;
each carries the player's own ``seq`` (a counter the client increases), so a
message delivered twice is applied once. Server messages carry a ``type``; room
messages carry the room ``version``. See docs/protocol.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from crossing.crossword.sizes import Size
from crossing.rooms.room import BOT_LEVELS, NAME_LIMIT, Mode

MAX_MESSAGE_BYTES = 4096

Name = Annotated[str, Field(min_length=1, max_length=NAME_LIMIT)]
Square = Annotated[int, Field(ge=0, le=400)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = Field(ge=0, le=2**53)


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
    model_config = ConfigDict(extra="forbid", frozen=True)
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
    level: Literal[BOT_LEVELS]  # type: ignore[valid-type]


class RemoveBot(_Message):
    action: Literal["remove_bot"]
    bot: str = Field(max_length=16)


class Choose(_Message):
    action: Literal["choose"]
    mode: Mode
    size: Size


class Start(_Message):
    action: Literal["start"]
    pick_up: bool = False  # pick the host's saved Together board back up
    replace_saved: bool = False  # confirmed: a new puzzle replaces the saved board


class PickUp(_Message):
    """From the home screen: pick up the race you left off on your own."""

    action: Literal["pick_up"]


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class Subscription(BaseModel):
    """A browser's PushSubscription, as ``subscription.toJSON()`` gives it."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    endpoint: str = Field(min_length=12, max_length=1024, pattern=r"^https://")
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
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
ACTIONS = sorted(
    a
    for model in (
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
    for a in model.model_fields["action"].annotation.__args__  # type: ignore[union-attr]
)


# --- server messages ----------------------------------------------------------------------


class Welcome(BaseModel):
    type: Literal["welcome"] = "welcome"
    player: str
    token: str
    saved: dict[str, bool]  # which saved games this player can pick up: race, together
    room: str | None = None  # the room this player is seated in, if any
    push_key: str | None = None  # the VAPID public key to subscribe with; None: no Web Push
    notify: bool = False  # this player has notifications on (a subscription is stored)
    account: dict[str, Any] | None = None  # {name, rating} when signed in to an account
    duel: str | None = None  # an unfinished Duel this player is in


class SignedIn(BaseModel):
    type: Literal["signed_in"] = "signed_in"
    player: str
    name: str
    rating: int
    refresh: str


class LobbyMessage(BaseModel):
    """The Duel games waiting for an opponent, and the viewer's own."""

    type: Literal["lobby"] = "lobby"
    seeks: list[dict[str, Any]]
    mine: dict[str, Any] | None
    now: int


class DuelMessage(BaseModel):
    """A Duel as this connection may see it, whole (it is small and changes by turns)."""

    type: Literal["duel"] = "duel"
    version: int
    game: dict[str, Any]


class RoomMessage(BaseModel):
    """The room as this connection may see it: all of it (``full``), or else a JSON Merge
    Patch (RFC 7386) of what changed since the previous version."""

    type: Literal["room"] = "room"
    version: int
    full: bool
    room: dict[str, Any]


class Ack(BaseModel):
    """The sender's message was applied (or had been already: ``duplicate``)."""

    type: Literal["ack"] = "ack"
    seq: int
    version: int | None = None
    duplicate: bool = False
    cursor: int | None = None  # after undo: the square the change was on


class Error(BaseModel):
    type: Literal["error"] = "error"
    code: str
    message: str
    seq: int | None = None

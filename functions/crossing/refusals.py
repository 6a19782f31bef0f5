"""Refusals: what every game and the rooms raise when a command is not allowed.

A refusal changes nothing. Its ``code`` is one of :class:`Code`, stable for clients
(docs/protocol.md lists every one with the meaning below, and a test holds the two
equal); its message is a sentence for the player, written where the rule lives.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Every refusal code a client can receive."""

    # the frame itself
    BAD_MESSAGE = "bad-message"
    BINARY_FRAME = "binary-frame"
    TOO_LARGE = "too-large"
    TOO_FAST = "too-fast"
    TOO_MANY = "too-many"
    UNKNOWN = "unknown"
    BUSY = "busy"
    STALE = "stale"
    # the server
    STORAGE = "storage"
    INTERNAL = "internal"
    GAME_TOO_LARGE = "game-too-large"
    # who is asking
    NO_HELLO = "no-hello"
    NO_PLAYER = "no-player"
    NOT_A_MEMBER = "not-a-member"
    NOT_A_PLAYER = "not-a-player"
    NOT_HOST = "not-host"
    # accounts
    NO_ACCOUNTS = "no-accounts"
    ACCOUNTS_DOWN = "accounts-down"
    NAME_TAKEN = "name-taken"
    WEAK_PASSWORD = "weak-password"
    WRONG_PASSWORD = "wrong-password"
    SIGNED_OUT = "signed-out"
    NO_PUSH = "no-push"
    # rooms
    NO_ROOM = "no-room"
    SOLO = "solo"
    FULL = "full"
    CLOSED = "closed"
    BAD_NAME = "bad-name"
    BAD_LEVEL = "bad-level"
    NOT_A_BOT = "not-a-bot"
    NOT_READY = "not-ready"
    PLAYING = "playing"
    NOT_PLAYING = "not-playing"
    NO_PLAYERS = "no-players"
    SAVED_BOARD = "saved-board"
    NO_SAVE = "no-save"
    NO_PUZZLES = "no-puzzles"
    NO_PUZZLE = "no-puzzle"
    # crossword play
    BAD_SQUARE = "bad-square"
    BAD_LETTER = "bad-letter"
    DONE = "done"
    ALREADY_DONE = "already-done"
    NOT_DONE = "not-done"
    NOTHING_TO_UNDO = "nothing-to-undo"
    PAUSED = "paused"
    NOT_PAUSED = "not-paused"
    OVER = "over"
    # Duel
    NO_SEEK = "no-seek"
    OWN_SEEK = "own-seek"
    ALREADY_WAITING = "already-waiting"
    BAD_LIMIT = "bad-limit"
    NO_GAME = "no-game"
    TWO_PLAYERS = "two-players"
    NOT_YOUR_TURN = "not-your-turn"
    OUT_OF_TIME = "out-of-time"
    ILLEGAL_PLAY = "illegal-play"
    NOT_ON_RACK = "not-on-rack"
    BAG_EMPTY = "bag-empty"


MEANING: dict[Code, str] = {
    Code.BAD_MESSAGE: (
        "not JSON, unknown action, or a field missing, of the wrong type or out of range"
    ),
    Code.BINARY_FRAME: "a binary WebSocket frame: messages are JSON text",
    Code.TOO_LARGE: "frame over 24,576 bytes (24 KiB)",
    Code.TOO_FAST: (
        "one player's frames came faster than the pace allows (see the seq and retry rules)"
    ),
    Code.TOO_MANY: (
        "too many joins by code, rooms hosted, sign-in tries or sign-ups from one source, "
        "or wrong passwords for a name lately (see Accounts)"
    ),
    Code.UNKNOWN: "an action this kind of room or game does not take",
    Code.BUSY: (
        "the room, game or lobby was written from elsewhere many times at once: "
        "send the same frame again, same seq, after a growing wait"
    ),
    Code.STALE: (
        "the seq is older than all 64 seqs this room keeps as applied for you: nothing changed"
    ),
    Code.STORAGE: (
        "the server could not save it (a full disk, an I/O error, a read-only data folder); "
        "nothing changed: send the same frame again, same seq, after a growing wait, until "
        "it is answered"
    ),
    Code.INTERNAL: "a fault on the server; that frame changed nothing and is not sent again",
    Code.GAME_TOO_LARGE: "the room or game has grown too large to store; that change was not kept",
    Code.NO_HELLO: "the connection has not said `hello`",
    Code.NO_PLAYER: "a watch screen asked for something only a player may do",
    Code.NOT_A_MEMBER: "not in this room",
    Code.NOT_A_PLAYER: "not in this game",
    Code.NOT_HOST: "only the host may do that",
    Code.NO_ACCOUNTS: "accounts are not set up on this server",
    Code.ACCOUNTS_DOWN: "the account service failed; try again later",
    Code.NAME_TAKEN: "an account with that name exists",
    Code.WEAK_PASSWORD: "the password is too short or too common",
    Code.WRONG_PASSWORD: "the name and password do not match",
    Code.SIGNED_OUT: "the account's sign-in has ended: sign in again",
    Code.NO_PUSH: "notifications are not set up on this server",
    Code.NO_ROOM: "no room with that code, or not in a room",
    Code.SOLO: "the room is on-your-own",
    Code.FULL: "the room has 8 players",
    Code.CLOSED: "the room was closed by its host",
    Code.BAD_NAME: "a name that is empty, too long or holds invisible characters",
    Code.BAD_LEVEL: "not a bot level",
    Code.NOT_A_BOT: "that player is not a bot",
    Code.NOT_READY: "the action does not fit the room's phase yet",
    Code.PLAYING: "a game is being played",
    Code.NOT_PLAYING: "no game is being played, or you left it: go to the game screen to rejoin",
    Code.NO_PLAYERS: "a game needs at least one player",
    Code.SAVED_BOARD: "Together `start` while the host has a saved board: confirm first",
    Code.NO_SAVE: "nothing to pick up",
    Code.NO_PUZZLES: "no puzzle of that size is left to deal",
    Code.NO_PUZZLE: "there is no puzzle to deal",
    Code.BAD_SQUARE: "not a white square of the puzzle",
    Code.BAD_LETTER: "not a letter A–Z",
    Code.DONE: "you are Done: keyboard and undo are off",
    Code.ALREADY_DONE: "Done twice",
    Code.NOT_DONE: "take back without Done",
    Code.NOTHING_TO_UNDO: "no change of yours left to undo",
    Code.PAUSED: "the game is paused",
    Code.NOT_PAUSED: "the game is not paused",
    Code.OVER: "the game has been checked, or the Duel has ended",
    Code.NO_SEEK: "that waiting game is gone or was taken",
    Code.OWN_SEEK: "your own waiting game cannot be challenged",
    Code.ALREADY_WAITING: "you already have a waiting game",
    Code.BAD_LIMIT: "not one of the time limits",
    Code.NO_GAME: "no such Duel, or none open on this connection",
    Code.TWO_PLAYERS: "a Duel is between two players",
    Code.NOT_YOUR_TURN: "it is the other player's turn",
    Code.OUT_OF_TIME: "your clock has run out",
    Code.ILLEGAL_PLAY: "the play breaks a rule of placement or is not a word",
    Code.NOT_ON_RACK: "that tile is not on your rack",
    Code.BAG_EMPTY: "the bag is empty: there is nothing to swap for",
}


class Refused(ValueError):
    """A command the rules do not allow; the state is unchanged.

    ``code`` is stable for clients and tests; the message is a sentence for a person.

    >>> Refused("bad-letter", "'1' is not a letter A to Z.").code
    <Code.BAD_LETTER: 'bad-letter'>
    """

    def __init__(self, code: Code | str, message: str):
        self.code = Code(code)  # a code missing from Code fails here, in the tests
        super().__init__(message)

// The Duel page's state and how each event changes it. Pure (a reducer for
// ../store.js): server messages and the player's own moves in, new state out.
import * as B from './board.js';
import { DEFAULT_LIMIT } from './lobby.js';
import { moveLine, winnerText } from './describe.js';
import { lookTo } from './replay.js';

export const initialState = {
  connected: false,
  welcomed: false,
  account: null, // {name, rating} when signed in
  resume: null, // welcome.duel: an unfinished game to open
  lobby: null, // the last `lobby` message
  game: null, // the last `duel` message's game
  version: -1,
  received: 0, // local ms when `game` arrived
  screen: 'lobby',
  place: B.placement(null, []),
  limit: DEFAULT_LIMIT,
  swapping: false, // Swap pressed: the next rack tile chosen is swapped
  chosen: null, // a rack tile tapped first (touch), to go on the next square tapped
  // The highlight is where the player aimed the next tile (a square tapped, arrows,
  // typing): only then does a rack tile tapped drop on it at once. After a tile put on
  // its square tile first, a drag or Recall, a rack tile tapped waits for its square.
  aimed: false,
  error: null, // {code, message} of the last refusal, shown until the next move
  announce: '', // for the aria-live region
  lastTick: null,
  signing: false, // a sign_up / sign_in sent, no answer yet
  dismissed: null, // the id of a game left with Back to lobby: its late messages are not shown
  myGames: null, // the last `duel_games`: {games, now} (a signed-in player's finished games)
  lookAt: null, // a finished game looked back to this many moves; null: as it ended
};

const myTurn = (state) => state.game != null && state.game.result == null && state.game.turn === state.game.you;

export { myTurn };

function onDuel(state, message, now) {
  const game = message.game;
  if (!game) return state;
  if (game.id === state.dismissed) return state; // a finished game the player has left
  const same = state.game?.id === game.id;
  if (same && message.version != null && message.version <= state.version) return state;
  let place = same ? B.sync(state.place, game.board, game.rack ?? []) : B.placement(game.board, game.rack ?? []);
  // After every move the highlight goes: a rack tile tapped next turn must not land
  // on the square chosen for the last play.
  if (same && game.moves.length !== state.game.moves.length) place = { ...place, cursor: null };
  const turnMoved = !same || state.game.turn !== game.turn || state.game.moves.length !== game.moves.length ||
    (!state.game.result && game.result);
  let announce = state.announce;
  if (turnMoved) {
    // The other player's move is read out before whose turn it is.
    const last = same && game.moves.length > state.game.moves.length ? game.moves[game.moves.length - 1] : null;
    let said = '';
    if (last && last.seat !== game.you) {
      const line = moveLine(last, game.seats);
      const where = last.at ? ` at ${last.at}` : '';
      said = `${line.who} ${last.kind === 'play' ? `played ${(last.words ?? []).join(', ')}${where} for ${line.score}` : line.what}. `;
    }
    if (game.result) announce = `${said}The game is over. ${winnerText(game)}`;
    else if (game.turn === game.you) announce = `${said}Your turn.`;
    else if (game.turn != null) announce = `${said}${game.seats[game.turn]?.name ?? 'Your opponent'}'s turn.`;
  }
  // A rated result moves this account's rating and counts the game (the lobby shows both next).
  const mine = game.result && game.you != null ? game.result.ratings?.[game.you] : null;
  const account = mine && state.account
    ? { ...state.account, rating: mine.after, games: mine.games ?? state.account.games, provisional: mine.provisional ?? state.account.provisional }
    : state.account;
  return {
    ...state,
    account,
    game,
    version: message.version ?? state.version,
    received: now,
    screen: 'game',
    resume: null,
    place,
    aimed: place.cursor != null && state.aimed,
    swapping: turnMoved ? false : state.swapping,
    chosen: null,
    error: turnMoved ? null : state.error,
    announce,
    lookAt: same ? state.lookAt : null,
  };
}

function onServer(state, message, now) {
  switch (message.type) {
    case 'welcome':
      return {
        ...state,
        connected: true,
        welcomed: true,
        account: message.account ?? null,
        resume: message.duel ?? null,
      };
    case 'signed_in':
      return {
        ...state,
        signing: false,
        account: { name: message.name, rating: message.rating, games: message.games, provisional: message.provisional },
        error: null,
        announce: `Signed in as ${message.name}.`,
      };
    case 'lobby':
      return { ...state, lobby: message };
    case 'duel_games':
      return { ...state, myGames: { games: message.games ?? [], now: message.now } };
    case 'duel':
      return onDuel(state, message, now);
    case 'error':
      return { ...state, signing: false, error: { code: message.code, message: message.message }, announce: message.message };
    default:
      return state;
  }
}

export function model(state, event) {
  const place = (next, aimed = state.aimed) =>
    (next === state.place ? state : { ...state, place: next, error: null, chosen: null, aimed });
  switch (event.type) {
    case 'server':
      return onServer(state, event.message, event.now);
    case 'connected':
      return { ...state, connected: event.connected };
    case 'limit':
      return { ...state, limit: event.limit };
    case 'to-lobby':
      return { ...state, screen: 'lobby', dismissed: state.game?.id ?? null, game: null, version: -1, place: B.placement(null, []), error: null, aimed: false, lookAt: null };
    case 'signing':
      return { ...state, signing: event.on, error: null };
    case 'signed-out':
      return { ...state, account: null, myGames: null };
    case 'open-game':
      // A game from My games: shown even if it was left with Back to lobby before.
      return { ...state, dismissed: state.dismissed === event.id ? null : state.dismissed };
    case 'look':
      if (!state.game?.result) return state;
      return { ...state, lookAt: lookTo(state.lookAt, state.game.moves.length, event.go) };
    case 'select': {
      if (state.chosen != null && !B.squareOf(state.place, event.row, event.col)) {
        return place(B.putOn(state.place, event.row, event.col, state.chosen), false);
      }
      if (B.placedAt(state.place, event.row, event.col) && state.place.cursor?.row === event.row && state.place.cursor?.col === event.col) {
        return place(B.takeBack(state.place, event.row, event.col), true);
      }
      return { ...state, place: B.select(state.place, event.row, event.col), chosen: null, aimed: true };
    }
    case 'letter':
      return place(B.type(state.place, event.letter), true);
    case 'drop':
      return place(B.putOn(state.place, event.row, event.col, event.index), false);
    case 'rack': {
      // A rack tile chosen: swapped (Swap mode), put on the highlight, or held for the next square.
      if (state.swapping) return state;
      const { cursor } = state.place;
      if (state.aimed && cursor && !B.squareOf(state.place, cursor.row, cursor.col)) {
        return place(B.placeAt(state.place, cursor.row, cursor.col, event.index));
      }
      return { ...state, chosen: state.chosen === event.index ? null : event.index };
    }
    case 'arrow':
      return { ...state, place: B.arrow(state.place, event.dr, event.dc), aimed: true };
    case 'turn':
      return { ...state, place: B.turn(state.place), aimed: true };
    case 'backspace':
      return place(B.backspace(state.place));
    case 'recall':
      return place(B.recall(state.place), false);
    case 'reorder':
      return { ...state, place: B.reorder(state.place, event.from, event.to) };
    case 'shuffle':
      return { ...state, place: B.shuffle(state.place, event.random), chosen: null };
    case 'swapping':
      return { ...state, swapping: event.on, chosen: null };
    case 'error':
      return { ...state, error: event.error, announce: event.error?.message ?? state.announce };
    case 'ticked':
      return { ...state, lastTick: { due: event.due, sent: event.sent } };
    default:
      return state;
  }
}

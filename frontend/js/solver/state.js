// The Solver page's state and its one pure reducer. Views read the state;
// every change goes through `reduce(state, action)`.

import {
  EMPTY,
  emptyBoard,
  isValidBoard,
  newTiles,
  placePlay,
  setSquare,
  stepFrom,
  typedSquare,
} from "./board.js";
import { HINT_STEPS } from "./hint.js";
import { normalizeRack, spentFromTiles, takeTiles } from "./rack.js";

export const ACTIONS = Object.freeze({
  RULES_LOADED: "rules-loaded",
  RULES_CHOSEN: "rules-chosen",
  SQUARE_CHOSEN: "square-chosen",
  DIRECTION_CHOSEN: "direction-chosen",
  KEY_TYPED: "key-typed",
  ERASED: "erased",
  CURSOR_MOVED: "cursor-moved",
  RACK_TYPED: "rack-typed",
  BONUS_SET: "bonus-set",
  SOLVE_STARTED: "solve-started",
  SOLVE_SUCCEEDED: "solve-succeeded",
  SOLVE_FAILED: "solve-failed",
  PLAY_CHOSEN: "play-chosen",
  PLAY_PLACED: "play-placed",
  HINT_STARTED: "hint-started",
  HINT_FOUND: "hint-found",
  HINT_NEXT: "hint-next",
  BOARD_CLEARED: "board-cleared",
  BOARD_LOADED: "board-loaded",
  SAVED_LISTED: "saved-listed",
  NOTICE: "notice",
});

export function initialState() {
  return {
    ruleSets: [],
    rules: "crossplay",
    board: emptyBoard(),
    cursor: null,
    direction: "across",
    blankArmed: false,
    rack: "",
    bonus: true,
    // "idle" | "solving" | "solved" | "failed"
    status: "idle",
    plays: [],
    chosen: null,
    hint: null,
    error: null,
    notice: "",
    savedNames: [],
  };
}

export function currentRuleSet(state) {
  return state.ruleSets.find((rules) => rules.name === state.rules) ?? null;
}

function rackLimits(state) {
  const rules = currentRuleSet(state);
  return rules ? { rackSize: rules.rack_size, blanks: rules.blanks } : {};
}

// Any change to what was asked makes the old answers stale.
function withoutAnswers(state) {
  return { ...state, status: "idle", plays: [], chosen: null, hint: null, error: null };
}

function typeKey(state, key) {
  if (key === "?") return { ...state, blankArmed: true };
  const square = typedSquare(key, state.blankArmed);
  if (!square || !state.cursor) return state;
  const { row, col } = state.cursor;
  const board = setSquare(state.board, row, col, square);
  const cursor = stepFrom(state.cursor, state.direction) ?? state.cursor;
  return { ...withoutAnswers(state), board, cursor, blankArmed: false };
}

function erase(state) {
  if (!state.cursor) return state;
  const { row, col } = state.cursor;
  // Backspace on an empty square clears the one behind it, as in a crossword.
  if (state.board[row][col] === EMPTY) {
    const back = stepFrom(state.cursor, state.direction, -1);
    if (!back) return { ...state, blankArmed: false };
    const board = setSquare(state.board, back.row, back.col, EMPTY);
    return { ...withoutAnswers(state), board, cursor: back, blankArmed: false };
  }
  const board = setSquare(state.board, row, col, EMPTY);
  return { ...withoutAnswers(state), board, blankArmed: false };
}

function place(state) {
  const play = state.plays[state.chosen];
  if (!play) return state;
  const tiles = newTiles(play);
  const { rack, missing } = takeTiles(state.rack, spentFromTiles(tiles));
  const notice = missing
    ? `Placed ${play.word}; the rack did not hold ${missing}.`
    : `Placed ${play.word} for ${play.score}.`;
  return { ...withoutAnswers(state), board: placePlay(state.board, play), rack, notice };
}

export function reduce(state, action) {
  switch (action.type) {
    case ACTIONS.RULES_LOADED:
      return { ...state, ruleSets: action.ruleSets };
    case ACTIONS.RULES_CHOSEN: {
      const next = { ...withoutAnswers(state), rules: action.rules };
      return { ...next, rack: normalizeRack(state.rack, rackLimits(next)) };
    }
    case ACTIONS.SQUARE_CHOSEN: {
      const same = state.cursor?.row === action.row && state.cursor?.col === action.col;
      // A second click on the chosen square turns the typing direction, as in crosswords.
      const direction = same ? flip(state.direction) : state.direction;
      return { ...state, cursor: { row: action.row, col: action.col }, direction };
    }
    case ACTIONS.DIRECTION_CHOSEN:
      return { ...state, direction: action.direction };
    case ACTIONS.KEY_TYPED:
      return typeKey(state, action.key);
    case ACTIONS.ERASED:
      return erase(state);
    case ACTIONS.CURSOR_MOVED: {
      if (!state.cursor) return state;
      const cursor = {
        row: clamp(state.cursor.row + action.rows),
        col: clamp(state.cursor.col + action.cols),
      };
      return { ...state, cursor };
    }
    case ACTIONS.RACK_TYPED: {
      const rack = normalizeRack(action.text, rackLimits(state));
      return rack === state.rack ? state : { ...withoutAnswers(state), rack };
    }
    case ACTIONS.BONUS_SET:
      return { ...withoutAnswers(state), bonus: action.bonus };
    case ACTIONS.SOLVE_STARTED:
      return { ...withoutAnswers(state), status: "solving", notice: "" };
    case ACTIONS.SOLVE_SUCCEEDED:
      return { ...state, status: "solved", plays: action.plays, chosen: null, error: null };
    case ACTIONS.SOLVE_FAILED:
      return { ...state, status: "failed", plays: [], chosen: null, hint: null, error: action.message };
    case ACTIONS.PLAY_CHOSEN:
      return { ...state, chosen: state.chosen === action.index ? null : action.index };
    case ACTIONS.PLAY_PLACED:
      return place(state);
    case ACTIONS.HINT_STARTED:
      return { ...withoutAnswers(state), status: "solving", notice: "" };
    case ACTIONS.HINT_FOUND:
      return { ...state, status: "idle", hint: { play: action.play ?? null, step: 1 } };
    case ACTIONS.HINT_NEXT:
      if (!state.hint) return state;
      return { ...state, hint: { ...state.hint, step: Math.min(state.hint.step + 1, HINT_STEPS) } };
    case ACTIONS.BOARD_CLEARED:
      return { ...withoutAnswers(state), board: emptyBoard(), cursor: null, notice: "" };
    case ACTIONS.BOARD_LOADED: {
      if (!isValidBoard(action.board)) {
        return { ...state, notice: "That saved board could not be read." };
      }
      const next = { ...withoutAnswers(state), board: action.board, notice: action.notice ?? "" };
      if (action.rules) next.rules = action.rules;
      if (typeof action.rack === "string") next.rack = normalizeRack(action.rack, rackLimits(next));
      return next;
    }
    case ACTIONS.SAVED_LISTED:
      return { ...state, savedNames: action.names };
    case ACTIONS.NOTICE:
      return { ...state, notice: action.notice };
    default:
      return state;
  }
}

function flip(direction) {
  return direction === "across" ? "down" : "across";
}

function clamp(index) {
  return Math.max(0, Math.min(14, index));
}

// The request body for POST /api/solve.
export function solveRequest(state, top) {
  const body = { rules: state.rules, rack: state.rack, board: state.board, bonus: state.bonus };
  if (top) body.top = top;
  return body;
}

// The hint is shown when the search is done; a finished hint has nothing left to reveal.
export function hintDone(state) {
  return Boolean(state.hint) && (state.hint.step >= HINT_STEPS || !state.hint.play);
}

// The screenshot reader: a picture of a 15×15 tile game in, the board and rack
// out, with how sure it is of each square. Pure and DOM-free (the page draws
// the picture into a canvas and passes its ImageData; node tests pass decoded
// PNGs). Nothing leaves the device.
//
// readScreenshot({width, height, data: RGBA bytes}) →
//   {board: 15 strings of 15 ('.' empty, 'A'-'Z' a tile, 'a'-'z' a blank),
//    rack: 'A'-'Z' and '?' for a blank, confidence: 15×15 numbers 0..1,
//    rackConfidence: one number per rack tile}
// or throws ReaderError with a sentence for the player.

import { MARK, classify, steadiness } from "./reader/classify.js";
import { NoBoard, SIZE, locateBoard, workingCopy } from "./reader/lattice.js";
import { readMarks, readSquare } from "./reader/marks.js";
import { colourGap } from "./reader/pixels.js";
import { findRack } from "./reader/rack.js";

// Below this a square is shown to the player first, to check.
export const LOW_CONFIDENCE = 0.8;
const SAME_FACE = 48;
const BOTTOM_RIGHT = 3; // where most games print a tile's value
const BLANKS_AT_MOST = 3; // more "blanks" than any bag holds: the game shows no values at all

export class ReaderError extends Error {}

// A letter: one clear character. A mark wider than a capital is two characters run
// together ("TW"), but a bold W (half again as wide as tall in some fonts) or M is one.
const WIDE_LETTERS = new Set(["W", "M"]);
function isLabel(marks, guess) {
  return marks.label || (marks.wide && !(WIDE_LETTERS.has(guess?.letter) && guess.confidence >= 0.9));
}

function isLetter(marks, guess) {
  return Boolean(marks.glyph) && !isLabel(marks, guess) && guess.letter !== MARK && guess.confidence >= 0.5;
}

// Which tiles show a point value. The value corner is the one most tiles have
// the most ink in; a tile is a blank when that corner holds little more ink than
// its other corners, well under what the tiles with the fewest strokes there have
// (a 1 is a third of a 10's ink). A game that prints no values at all has no value
// corner, and then nothing is a blank. Each tile's call comes with how sure it is:
// ink near the line between a blank and a 1 is a call the player should check.
function valued(tiles) {
  const result = new Map();
  if (!tiles.length) return { values: result, corner: null };
  const sorted = (values) => values.slice().sort((a, b) => a - b);
  const median = (values) => sorted(values)[Math.floor(values.length / 2)];
  let corner = 0;
  let most = -1;
  for (let k = 0; k < 4; k += 1) {
    const m = median(tiles.map((s) => s.marks.corners[k]));
    if (m > most) {
      most = m;
      corner = k;
    }
  }
  const excess = (s) => {
    const c = s.marks.corners;
    const others = c.filter((_, k) => k !== corner);
    return c[corner] - others.reduce((a, b) => a + b, 0) / others.length;
  };
  const excesses = tiles.map(excess);
  const typical = median(excesses);
  const shown = typical > 0.02;
  // The tiles with the thinnest values (a quarter of them; a bag has few blanks), or
  // on a board of a few tiles, the typical one.
  const thin = tiles.length >= 8 ? sorted(excesses)[Math.floor(tiles.length / 4)] : typical;
  const line = Math.min(typical * 0.35, thin * 0.45);
  for (const s of tiles) {
    const e = excess(s);
    const sure = !shown ? 1 : e < line * 0.5 || e > line * 1.3 ? 1 : 0.5;
    result.set(s, { value: !shown || e > line, sure });
  }
  return { values: result, corner: shown ? corner : null };
}

// Only an I is a plain bar under a third as wide as it is tall (a J has its hook, a
// T its top), in every font; the classifier, seeing few such bars unlike its own
// fonts' Is, may doubt it, even when it says I.
function isBar(marks) {
  const { x0, x1, y0, y1 } = marks.letter;
  return x1 - x0 + 1 < (y1 - y0 + 1) * 0.3;
}

function guessOf(marks) {
  const guess = { ...classify(marks.glyph), glyph: marks.glyph };
  if (!isBar(marks)) return guess;
  return { letter: "I", confidence: Math.max(0.9, guess.letter === "I" ? guess.confidence : 0), glyph: null };
}

// How sure to say the reader is of a letter. The classifier's own score can be
// high by chance on a font unlike its training fonts; such a letter, nudged a
// pixel or drawn bolder or thinner, is given other letters (on the images tuned
// on, every misread letter kept under 0.4 of its score on average, right ones
// mostly over 0.9), so then the reader says it is no surer than that. A bar is an
// I by its shape, whatever the classifier says.
const STEADY = 0.5;
function sureOf(guess) {
  if (!guess.glyph) return guess.confidence;
  const steady = steadiness(guess.glyph, guess.letter);
  return steady < STEADY ? Math.min(steady, guess.confidence) : guess.confidence;
}

// A letter in doubt read again without the value corner, in case the value ran into it.
function reread(square, corner) {
  const cut = corner === null ? null : square.marks.cuts[corner];
  if (!cut || square.guess.confidence >= 0.9) return;
  const again = { ...classify(cut), glyph: cut };
  if (again.letter !== MARK && again.confidence > square.guess.confidence) square.guess = again;
}

// Squares of one face colour are one kind (plain, a premium, tiles, highlighted
// tiles): a kind is tiles when most of its squares carry one clear letter.
function kindsOf(squares) {
  const kinds = [];
  for (const square of squares) {
    let kind = kinds.find((k) => colourGap(k.face, square.marks.face) < SAME_FACE);
    if (!kind) {
      kind = { face: square.marks.face, squares: [], letters: [] };
      kinds.push(kind);
    }
    kind.squares.push(square);
    if (isLetter(square.marks, square.guess)) kind.letters.push(square);
  }
  for (const kind of kinds) {
    kind.tiles = kind.letters.length / kind.squares.length >= 0.5;
    // Premium squares of one colour all carry the same mark ("2L"); tiles carry many letters.
    const counts = new Map();
    for (const s of kind.letters) counts.set(s.guess.letter, (counts.get(s.guess.letter) ?? 0) + 1);
    const commonest = Math.max(0, ...counts.values());
    kind.label = kind.letters.length >= 3 && commonest >= kind.letters.length * 0.8;
    if (kind.label) kind.tiles = false;
  }
  // Where the game prints values on its tiles, a kind whose "letters" carry none
  // (more of them than the bag has blanks) is a premium square's label.
  const main = kinds.filter((k) => k.tiles).sort((a, b) => b.letters.length - a.letters.length)[0];
  if (main && main.letters.length > BLANKS_AT_MOST) {
    const { values } = valued(kinds.filter((k) => k.tiles).flatMap((k) => k.letters));
    for (const kind of kinds) {
      const bare = kind.letters.filter((s) => !values.get(s)?.value).length;
      if (kind !== main && kind.tiles && bare > Math.max(BLANKS_AT_MOST, kind.letters.length / 2)) kind.tiles = false;
    }
  }
  return kinds;
}

function readBoard(image, lattice) {
  const squares = [];
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) {
      const x0 = lattice.xs[col];
      const x1 = lattice.xs[col + 1];
      const y0 = lattice.ys[row];
      const y1 = lattice.ys[row + 1];
      const inset = Math.max(1, (x1 - x0) * 0.02);
      const marks = readSquare(image, x0 + inset, y0 + inset, x1 - inset, y1 - inset);
      const guess = marks.glyph ? guessOf(marks) : { letter: null, confidence: 0 };
      squares.push({ row, col, marks, guess });
    }
  }
  const kinds = kindsOf(squares);
  const tiles = kinds.filter((k) => k.tiles).flatMap((k) => k.letters);
  const { values, corner } = valued(tiles);
  for (const s of tiles) reread(s, corner);

  const board = Array.from({ length: SIZE }, () => Array(SIZE).fill("."));
  const confidence = Array.from({ length: SIZE }, () => Array(SIZE).fill(1));
  for (const kind of kinds) {
    for (const s of kind.squares) {
      const letter = isLetter(s.marks, s.guess);
      if (kind.tiles && letter) {
        const { value, sure } = values.get(s);
        board[s.row][s.col] = value ? s.guess.letter : s.guess.letter.toLowerCase();
        confidence[s.row][s.col] = Math.min(sure, sureOf(s.guess));
      } else if (kind.tiles) {
        // A tile's colour with no letter read on it: most likely a tile we failed.
        confidence[s.row][s.col] = 0.3;
      } else if (letter && !kind.label) {
        // A clear letter on a square coloured like an empty one.
        confidence[s.row][s.col] = 1 - s.guess.confidence / 2;
      }
    }
  }
  const tileFace = kinds.filter((k) => k.tiles).sort((a, b) => b.squares.length - a.squares.length)[0]?.face ?? null;
  return { board: board.map((r) => r.join("")), confidence, tileFace, valueCorner: corner };
}

function readRack(image, small, factor, lattice, tileFace, valueCorner) {
  const area = { x0: lattice.xs[0], x1: lattice.xs[SIZE], y0: lattice.ys[0], y1: lattice.ys[SIZE], pitch: lattice.pitch };
  let rack = "";
  const rackConfidence = [];
  for (const tile of findRack(small, factor, area, tileFace)) {
    const inset = (tile.x1 - tile.x0) * 0.04;
    const marks = readMarks(image, tile.x0 + inset, tile.y0 + inset, tile.x1 - inset, tile.y1 - inset, tile.colour);
    const square = { marks, guess: marks.glyph ? guessOf(marks) : null };
    if (square.guess) reread(square, valueCorner ?? BOTTOM_RIGHT);
    const { guess } = square;
    if (guess && isLetter(marks, guess)) {
      rack += guess.letter;
      rackConfidence.push(sureOf(guess));
    } else {
      // A rack tile with no letter on it is a blank.
      rack += "?";
      rackConfidence.push(marks.glyph && !isLabel(marks, guess) ? 0.5 : 0.95);
    }
  }
  return { rack, rackConfidence };
}

export function readScreenshot(image) {
  if (!image || !(image.width > 0) || !(image.height > 0) || !image.data || image.data.length < image.width * image.height * 4) {
    throw new ReaderError("That file is not a picture the reader can open.");
  }
  const { small, factor } = workingCopy(image);
  let lattice;
  try {
    lattice = locateBoard(small, factor);
  } catch (error) {
    if (error instanceof NoBoard) {
      throw new ReaderError("No 15×15 board was found in this picture. Use a screenshot that shows the whole board.");
    }
    throw error;
  }
  const { board, confidence, tileFace, valueCorner } = readBoard(image, lattice);
  const { rack, rackConfidence } = readRack(image, small, factor, lattice, tileFace, valueCorner);
  return { board, rack, confidence, rackConfidence };
}

// The review step, pure: what the reader read, the player's fixes, the squares
// to check first, and the board and rack that Apply hands to the Solver.

import { LOW_CONFIDENCE } from "../reader.js";

const SIZE = 15;

export function reviewOf(reading) {
  return {
    board: reading.board.map((row) => [...row]),
    confidence: reading.confidence.map((row) => row.slice()),
    rack: reading.rack,
    rackConfidence: reading.rackConfidence.slice(),
    fixed: new Set(),
  };
}

// What the player typed on a square: a capital is a tile, a small letter a blank,
// nothing (or '.', a space) empty. Anything else changes nothing.
export function squareFrom(text) {
  const ch = text.trim().slice(-1);
  if (ch === "" || ch === ".") return ".";
  return /^[A-Za-z]$/.test(ch) ? ch : null;
}

export function fixSquare(review, row, col, text) {
  const square = squareFrom(text);
  if (square === null) return review;
  const board = review.board.map((line) => line.slice());
  board[row][col] = square;
  const fixed = new Set(review.fixed).add(`${row},${col}`);
  return { ...review, board, fixed };
}

export function fixRack(review, text) {
  const rack = text.toUpperCase().replace(/[^A-Z?]/g, "").slice(0, 7);
  return { ...review, rack, rackConfidence: [...rack].map(() => 1) };
}

export function isDoubtful(review, row, col) {
  return !review.fixed.has(`${row},${col}`) && review.confidence[row][col] < LOW_CONFIDENCE;
}

// The squares to look at, least sure first.
export function doubts(review) {
  const found = [];
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) {
      if (isDoubtful(review, row, col)) found.push({ row, col, square: review.board[row][col], confidence: review.confidence[row][col] });
    }
  }
  return found.sort((a, b) => a.confidence - b.confidence || a.row - b.row || a.col - b.col);
}

export function rackDoubts(review) {
  return review.rackConfidence.filter((c) => c < LOW_CONFIDENCE).length;
}

export function applied(review) {
  return { board: review.board.map((line) => line.join("")), rack: review.rack };
}

// How sure the reader is of the whole board: its least sure square.
export function overall(review) {
  let least = 1;
  for (const line of review.confidence) for (const c of line) least = Math.min(least, c);
  return least;
}

export function tilesRead(review) {
  return review.board.reduce((n, line) => n + line.filter((s) => s !== ".").length, 0);
}

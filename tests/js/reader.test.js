import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { LOW_CONFIDENCE, ReaderError, readScreenshot } from "../../frontend/js/solver/reader.js";
import { readPng } from "./reader/png.js";

// Screenshots made by scripts/reader_images.py --fixtures: our own pages and three
// drawn styles, each with the position it shows beside it.
const FIXTURES = new URL("./fixtures/reader/", import.meta.url);
const shots = readdirSync(FIXTURES).filter((name) => name.endsWith(".png")).sort();

test("the fixed set covers our pages and the drawn styles", () => {
  const styles = shots.map((name) => JSON.parse(readFileSync(new URL(name.replace(".png", ".json"), FIXTURES))).style);
  for (const style of ["solver-phone", "solver-desktop", "duel-phone", "night", "paper", "bright"]) {
    assert.ok(styles.includes(style), `no ${style} screenshot`);
  }
});

for (const name of shots) {
  test(`${name}: every square, every blank and the rack are read`, () => {
    const truth = JSON.parse(readFileSync(new URL(name.replace(".png", ".json"), FIXTURES)));
    const reading = readScreenshot(readPng(new URL(name, FIXTURES)));
    assert.deepEqual(reading.board, truth.board);
    assert.equal(reading.rack, truth.rack);
    assert.equal(reading.confidence.length, 15);
    assert.ok(reading.confidence.every((row) => row.length === 15 && row.every((c) => c >= 0 && c <= 1)));
    assert.equal(reading.rackConfidence.length, truth.rack.length);
  });
}

// Two screenshots in the "bright" style (a font the classifier was never trained on)
// from a tuning run (scripts/reader_images.py --seed 5 and --seed 6, decoded to PNG)
// that the reader once got silently wrong.
const CASES = new URL("./fixtures/reader-cases/", import.meta.url);
const readCase = (name) => ({
  truth: JSON.parse(readFileSync(new URL(`${name}.json`, CASES))),
  reading: readScreenshot(readPng(new URL(`${name}.png`, CASES))),
});

test("a blank is told from a tile whose value is a thin 1", () => {
  const { truth, reading } = readCase("bright-blank-beside-ones");
  assert.equal(truth.board[6][9], "s"); // the blank
  assert.equal(truth.board[7][6], "A"); // its value, 1, has the least ink of any
  assert.deepEqual(reading.board, truth.board);
  assert.equal(reading.rack, truth.rack);
});

test("a letter the classifier misreads in an unseen font is shown as doubtful, not given as sure", () => {
  const { truth, reading } = readCase("bright-t-like-m");
  const wrong = [];
  truth.board.forEach((line, r) =>
    [...line].forEach((ch, c) => {
      if (reading.board[r][c] !== ch) wrong.push([r, c, reading.confidence[r][c]]);
    }),
  );
  // The T at row 12, column 8 looks like an M to the classifier, which says so at 0.98.
  assert.deepEqual(
    wrong.map(([r, c]) => [r, c]),
    [[11, 7]],
  );
  assert.ok(wrong[0][2] < LOW_CONFIDENCE, `given at ${wrong[0][2]}`);
  // The board's other tiles, in the same font, stay sure.
  const sure = truth.board.flatMap((line, r) => [...line].map((ch, c) => (ch !== "." && r !== 11 ? reading.confidence[r][c] : 1)));
  assert.ok(sure.filter((c) => c < LOW_CONFIDENCE).length <= 2, "more than two right tiles doubted");
});

function image(width, height, paint) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = paint(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

test("a picture with no board is refused with a sentence, not a guess", () => {
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % 256;
  };
  for (const picture of [
    image(300, 600, () => [250, 250, 250]),
    image(300, 600, () => [noise(), noise(), noise()]),
    image(300, 600, (x, y) => (Math.floor(y / 40) % 2 ? [30, 90, 200] : [255, 255, 255])), // stripes: lines one way only
  ]) {
    assert.throws(() => readScreenshot(picture), (error) => error instanceof ReaderError && /No 15×15 board/.test(error.message));
  }
});

test("something that is not an image is refused", () => {
  assert.throws(() => readScreenshot({ width: 10, height: 10, data: new Uint8Array(12) }), ReaderError);
  assert.throws(() => readScreenshot(null), ReaderError);
});

test("an empty board drawn as plain squares reads as empty and sure", () => {
  // 15×15 white squares with grey lines, a status bar above: nothing on it.
  const cell = 24;
  const picture = image(400, 700, (x, y) => {
    if (y < 40) return [20, 20, 20];
    const bx = x - 20;
    const by = y - 120;
    if (bx < 0 || by < 0 || bx > cell * 15 || by > cell * 15) return [240, 240, 236];
    return bx % cell === 0 || by % cell === 0 ? [150, 150, 160] : [255, 255, 255];
  });
  const reading = readScreenshot(picture);
  assert.deepEqual(reading.board, Array(15).fill("..............."));
  assert.ok(reading.confidence.flat().every((c) => c >= LOW_CONFIDENCE));
  assert.equal(reading.rack, "");
});

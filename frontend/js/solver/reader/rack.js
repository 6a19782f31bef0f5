// Finds the rack: up to seven tiles of one colour and size, in a row below or
// above the board or a column beside it. Tiles are found as flat patches of
// colour (a tile's face, its letter cut out of it) about a board square's size.

import { colourGap } from "./pixels.js";

const STEP_GAP = 24; // neighbouring pixels this close belong to the same patch
const SAME_COLOUR = 45;
export const RACK_MAX = 7;

function patches(small, walls) {
  const { width, height, rgb } = small;
  const label = new Int32Array(width * height).fill(-1);
  for (let i = 0; i < walls.length; i += 1) if (walls[i]) label[i] = -2;
  const found = [];
  const stack = [];
  for (let start = 0; start < label.length; start += 1) {
    if (label[start] !== -1) continue;
    const patch = { area: 0, x0: width, y0: height, x1: -1, y1: -1, r: 0, g: 0, b: 0, border: false };
    const id = found.length;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop();
      const x = i % width;
      const y = (i - x) / width;
      const o = i * 3;
      patch.area += 1;
      patch.r += rgb[o];
      patch.g += rgb[o + 1];
      patch.b += rgb[o + 2];
      if (x < patch.x0) patch.x0 = x;
      if (x > patch.x1) patch.x1 = x;
      if (y < patch.y0) patch.y0 = y;
      if (y > patch.y1) patch.y1 = y;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) patch.border = true;
      for (let n = 0; n < 4; n += 1) {
        const j = n === 0 ? (x > 0 ? i - 1 : -1) : n === 1 ? (x < width - 1 ? i + 1 : -1) : n === 2 ? i - width : i + width;
        if (j < 0 || j >= label.length || label[j] !== -1) continue;
        const p = j * 3;
        const gap = Math.abs(rgb[o] - rgb[p]) + Math.abs(rgb[o + 1] - rgb[p + 1]) + Math.abs(rgb[o + 2] - rgb[p + 2]);
        if (gap > STEP_GAP) continue;
        label[j] = id;
        stack.push(j);
      }
    }
    found.push(patch);
  }
  return found;
}

function tileShaped(patch, pitch) {
  const w = patch.x1 - patch.x0 + 1;
  const h = patch.y1 - patch.y0 + 1;
  return (
    !patch.border &&
    h >= pitch * 0.6 &&
    h <= pitch * 5 &&
    w >= h * 0.6 &&
    w <= h * 1.5 &&
    patch.area >= w * h * 0.45
  );
}

// Tiles in one line: same colour, same height, each next to the last.
function line(seed, tiles, across) {
  const h = seed.y1 - seed.y0 + 1;
  const centre = (t) => (across ? (t.y0 + t.y1) / 2 : (t.x0 + t.x1) / 2);
  const along = (t) => (across ? t.x0 : t.y0);
  const members = tiles
    .filter(
      (t) =>
        colourGap(t.colour, seed.colour) < SAME_COLOUR &&
        Math.abs(t.y1 - t.y0 + 1 - h) <= h * 0.2 &&
        Math.abs(centre(t) - centre(seed)) < h * 0.35,
    )
    .sort((a, b) => along(a) - along(b));
  // Keep the run around the seed whose steps are tile-sized.
  const at = members.indexOf(seed);
  let lo = at;
  let hi = at;
  while (lo > 0 && along(members[lo]) - along(members[lo - 1]) < h * 2) lo -= 1;
  while (hi < members.length - 1 && along(members[hi + 1]) - along(members[hi]) < h * 2) hi += 1;
  return members.slice(lo, hi + 1);
}

// The rack's tiles as rectangles in the image's pixels, in reading order.
export function findRack(small, factor, board, tileFace) {
  const margin = board.pitch * 0.3;
  const bx0 = (board.x0 - margin) / factor;
  const bx1 = (board.x1 + margin) / factor;
  const by0 = (board.y0 - margin) / factor;
  const by1 = (board.y1 + margin) / factor;
  const walls = new Uint8Array(small.width * small.height);
  for (let y = Math.max(0, Math.ceil(by0)); y <= Math.min(small.height - 1, by1); y += 1) {
    walls.fill(1, y * small.width + Math.max(0, Math.ceil(bx0)), y * small.width + Math.min(small.width - 1, Math.floor(bx1)) + 1);
  }
  const pitch = board.pitch / factor;
  const tiles = patches(small, walls)
    .filter((p) => tileShaped(p, pitch))
    .map((p) => ({ ...p, colour: [p.r / p.area, p.g / p.area, p.b / p.area] }));
  let best = null;
  let bestScore = -Infinity;
  for (const seed of tiles) {
    for (const across of [true, false]) {
      const run = line(seed, tiles, across);
      if (run.length > RACK_MAX || (!across && run.length < 2)) continue;
      const cy = (run[0].y0 + run[0].y1) / 2;
      let score = run.length * 2;
      if (tileFace && colourGap(seed.colour, tileFace) < SAME_COLOUR) score += 5;
      if (across && cy > by1) score += 1;
      if (score > bestScore) {
        bestScore = score;
        best = run;
      }
    }
  }
  return (best ?? []).map((t) => ({
    x0: t.x0 * factor,
    y0: t.y0 * factor,
    x1: (t.x1 + 1) * factor,
    y1: (t.y1 + 1) * factor,
    colour: t.colour,
  }));
}

// What is written on one square or rack tile: its face colour, the marks on it
// (connected blobs of "ink", anything far from the face colour), which blob is
// the letter, whether a point value sits beside it, and the letter as a
// normalised bitmap for the classifier. The same code reads the training glyphs.

import { crop, medianColour } from "./pixels.js";

export const GLYPH = 16; // the classifier sees GLYPH × GLYPH
const MIN_INK = 70;
const SIDE = 36; // a square is read at 36 to 71 pixels a side, whatever the screen's resolution

function inkThreshold(gaps) {
  // The 97th percentile of the distances, from a histogram (distances are 0..765).
  const counts = new Uint32Array(766);
  for (const g of gaps) counts[Math.min(765, Math.round(g))] += 1;
  let seen = 0;
  let high = 0;
  for (let v = 0; v < counts.length; v += 1) {
    seen += counts[v];
    if (seen >= gaps.length * 0.97) {
      high = v;
      break;
    }
  }
  return high < MIN_INK ? null : Math.max(MIN_INK * 0.8, high * 0.5);
}

function blobs(ink, width, height) {
  const label = new Int32Array(width * height).fill(-1);
  const found = [];
  const stack = [];
  for (let start = 0; start < ink.length; start += 1) {
    if (!ink[start] || label[start] !== -1) continue;
    const blob = { id: found.length, area: 0, x0: width, y0: height, x1: -1, y1: -1, edge: false };
    label[start] = blob.id;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop();
      const x = i % width;
      const y = (i - x) / width;
      blob.area += 1;
      if (x < blob.x0) blob.x0 = x;
      if (x > blob.x1) blob.x1 = x;
      if (y < blob.y0) blob.y0 = y;
      if (y > blob.y1) blob.y1 = y;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) blob.edge = true;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const j = ny * width + nx;
          if (ink[j] && label[j] === -1) {
            label[j] = blob.id;
            stack.push(j);
          }
        }
      }
    }
    found.push(blob);
  }
  return { label, found };
}

// A blob along a side that is long and thin (a shadow, a line) or a ring round
// the square (a highlight, a border), not a letter that reaches the side.
function isFrame(b, width, height) {
  const w = b.x1 - b.x0 + 1;
  const h = b.y1 - b.y0 + 1;
  // A line lies along the side it is parallel to; an I or a J printed high touches
  // the top edge, not a side.
  if (w > width * 0.6 && h < height * 0.3 && (b.y0 <= 1 || b.y1 >= height - 2)) return true;
  if (h > height * 0.6 && w < width * 0.3 && (b.x0 <= 1 || b.x1 >= width - 2)) return true;
  return w > width * 0.6 && h > height * 0.6 && b.area < w * h * 0.3;
}

// How much of each corner (top left, top right, bottom left, bottom right; 30 %
// of the square each way) is ink other than the letter. A point value fills one
// corner on every tile but a blank; a rounded tile's corners and its shadow are
// the same on every tile, so reader.js compares tiles with each other.
function cornerInk(ink, label, width, height, letterId) {
  const w = Math.max(1, Math.round(width * 0.3));
  const h = Math.max(1, Math.round(height * 0.3));
  return [
    [0, 0],
    [width - w, 0],
    [0, height - h],
    [width - w, height - h],
  ].map(([x0, y0]) => {
    let count = 0;
    for (let y = y0; y < y0 + h; y += 1) {
      for (let x = x0; x < x0 + w; x += 1) {
        const i = y * width + x;
        if (ink[i] && label[i] !== letterId) count += 1;
      }
    }
    return count / (w * h);
  });
}

// The letter blob drawn into a GLYPH×GLYPH square, its aspect kept, ink 0..1.
function glyphOf(gaps, label, width, blob, threshold) {
  const w = blob.x1 - blob.x0 + 1;
  const h = blob.y1 - blob.y0 + 1;
  const scale = (GLYPH - 2) / Math.max(w, h);
  const offX = (GLYPH - w * scale) / 2;
  const offY = (GLYPH - h * scale) / 2;
  const out = new Float32Array(GLYPH * GLYPH);
  const weight = new Float32Array(GLYPH * GLYPH);
  const soft = threshold * 0.5;
  for (let y = blob.y0; y <= blob.y1; y += 1) {
    for (let x = blob.x0; x <= blob.x1; x += 1) {
      const i = y * width + x;
      const mine = label[i] === blob.id || label[i] === -1;
      const value = mine ? Math.max(0, Math.min(1, (gaps[i] - soft) / threshold)) : 0;
      // Spread this pixel over the output cells its footprint covers.
      const fx0 = offX + (x - blob.x0) * scale;
      const fy0 = offY + (y - blob.y0) * scale;
      const fx1 = fx0 + scale;
      const fy1 = fy0 + scale;
      for (let gy = Math.floor(fy0); gy < Math.ceil(fy1) && gy < GLYPH; gy += 1) {
        const oy = Math.min(fy1, gy + 1) - Math.max(fy0, gy);
        if (oy <= 0) continue;
        for (let gx = Math.floor(fx0); gx < Math.ceil(fx1) && gx < GLYPH; gx += 1) {
          const ox = Math.min(fx1, gx + 1) - Math.max(fx0, gx);
          if (ox <= 0) continue;
          const k = gy * GLYPH + gx;
          out[k] += value * ox * oy;
          weight[k] += ox * oy;
        }
      }
    }
  }
  for (let k = 0; k < out.length; k += 1) out[k] = weight[k] ? out[k] / weight[k] : 0;
  return out;
}

// The square's own face inside a lattice cell: the cell less any gap, line or
// background along its sides: a side's row (column) is outside the face when
// nearly all of it, corners aside, is off the face colour. A letter may come
// close to a side (some games print it high, the value below it), but it never
// runs along most of one. Keeps the crop centred on the tile, so its corners
// and its point value sit where they sit on every other tile.
function faceOf(grid, colour) {
  const { width, height, rgb } = grid;
  const off = (x, y) => {
    const i = (y * width + x) * 3;
    return Math.abs(rgb[i] - colour[0]) + Math.abs(rgb[i + 1] - colour[1]) + Math.abs(rgb[i + 2] - colour[2]) > 60;
  };
  const outside = (positions) => positions.filter(([x, y]) => off(x, y)).length > positions.length * 0.9;
  const band = (n) => Array.from({ length: Math.max(1, Math.round(n * 0.8)) }, (_, k) => Math.round(n * 0.1) + k);
  const reach = 0.2;
  let left = 0;
  let right = width - 1;
  let top = 0;
  let bottom = height - 1;
  while (left < width * reach && outside(band(height).map((y) => [left, y]))) left += 1;
  while (right > width * (1 - reach) && outside(band(height).map((y) => [right, y]))) right -= 1;
  while (top < height * reach && outside(band(width).map((x) => [x, top]))) top += 1;
  while (bottom > height * (1 - reach) && outside(band(width).map((x) => [x, bottom]))) bottom -= 1;
  // Then a little inside the face; less so at the top, where a letter printed high
  // (with its value below it) may come within a pixel or two of the edge.
  const inset = Math.max(1, Math.round((right - left + 1) * 0.05));
  const insetTop = Math.max(1, Math.round((right - left + 1) * 0.035));
  return subgrid(grid, left + inset, top + insetTop, right - inset, bottom - inset);
}

function subgrid(grid, x0, y0, x1, y1) {
  const width = Math.max(0, x1 - x0 + 1);
  const height = Math.max(0, y1 - y0 + 1);
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const from = ((y0 + y) * grid.width + x0) * 3;
    rgb.set(grid.rgb.subarray(from, from + width * 3), y * width * 3);
  }
  return { width, height, rgb, step: grid.step };
}

// Reads a board square from its lattice cell: its face found, then read.
export function readSquare(image, x0, y0, x1, y1) {
  const grid = crop(image, x0, y0, x1, y1, SIDE);
  const colour = medianColour(grid);
  return readGrid(faceOf(grid, colour), colour);
}

// Reads the rectangle (x0, y0)-(x1, y1) of the image. `face` may be given (a
// rack tile's colour, known from the region it was found as).
export function readMarks(image, x0, y0, x1, y1, face = null) {
  const grid = crop(image, x0, y0, x1, y1, SIDE);
  return readGrid(grid, face ?? medianColour(grid));
}

// The blobs of ink, less frames and shadows along a side, and the letter: the
// tallest blob near the middle. Null when there is no ink at all.
function inkBlobs(ink, width, height) {
  const { label, found } = blobs(ink, width, height);
  // A blob along the border as long as the square is its frame, shadow or highlight.
  const marks = found.filter((b) => b.area >= 3 && !(b.edge && isFrame(b, width, height)));
  if (!marks.length) return null;
  const central = marks.filter((b) => {
    const cx = (b.x0 + b.x1) / 2 / width;
    const cy = (b.y0 + b.y1) / 2 / height;
    return cx > 0.25 && cx < 0.75 && cy > 0.15 && cy < 0.75 && b.y1 - b.y0 + 1 >= height * 0.26;
  });
  const letter = central.length
    ? central.reduce((a, b) => (b.y1 - b.y0 > a.y1 - a.y0 || (b.y1 - b.y0 === a.y1 - a.y0 && b.area > a.area) ? b : a))
    : null;
  return { label, marks, letter };
}

// The ink pixels far off the line from the face colour to the letter's ink
// colour (the median of its strongest pixels): an edge between letter and face
// lies on that line, a mark of a third colour (a "last play" dot, an outline)
// does not. Gives them, and how many of them are on the letter blob.
function foreignInk(rgb, gaps, ink, label, letter, face, threshold) {
  const strong = [];
  for (let i = 0; i < gaps.length; i += 1) if (label[i] === letter.id && gaps[i] > threshold * 1.5) strong.push(i);
  const off = new Uint8Array(gaps.length);
  let onLetter = 0;
  if (!strong.length) return { off, onLetter };
  const channel = (c) => strong.map((i) => rgb[i * 3 + c]).sort((a, b) => a - b)[Math.floor(strong.length / 2)];
  const line = [0, 1, 2].map((c) => channel(c) - face[c]);
  const length2 = line[0] ** 2 + line[1] ** 2 + line[2] ** 2;
  if (!length2) return { off, onLetter };
  const limit = 0.3 * Math.sqrt(length2);
  for (let i = 0; i < gaps.length; i += 1) {
    if (!ink[i]) continue;
    const d = [0, 1, 2].map((c) => rgb[i * 3 + c] - face[c]);
    const t = (d[0] * line[0] + d[1] * line[1] + d[2] * line[2]) / length2;
    if (Math.hypot(d[0] - t * line[0], d[1] - t * line[1], d[2] - t * line[2]) > limit) {
      off[i] = 1;
      if (label[i] === letter.id) onLetter += 1;
    }
  }
  return { off, onLetter };
}

function readGrid(grid, colour) {
  const { width, height, rgb } = grid;
  const result = { face: colour, ink: false, letter: null, label: false, wide: false, glyph: null, cuts: [], height: 0, corners: [0, 0, 0, 0] };
  if (width < 6 || height < 6) return result;
  const gaps = new Float32Array(width * height);
  for (let i = 0; i < gaps.length; i += 1) {
    gaps[i] = Math.abs(rgb[i * 3] - colour[0]) + Math.abs(rgb[i * 3 + 1] - colour[1]) + Math.abs(rgb[i * 3 + 2] - colour[2]);
  }
  const threshold = inkThreshold(gaps);
  if (threshold === null) return result;
  const ink = new Uint8Array(gaps.length);
  for (let i = 0; i < gaps.length; i += 1) ink[i] = gaps[i] > threshold ? 1 : 0;
  let found = inkBlobs(ink, width, height);
  if (!found) return result;
  result.ink = true;
  // A mark of another colour touching the letter (a "last play" dot, an outline)
  // is not part of it: ink off the line between the face and the letter's own
  // colour is dropped, and the blobs found again.
  // It is not counted in the corners either (a dot on every new tile is no value).
  if (found.letter) {
    const { off, onLetter } = foreignInk(rgb, gaps, ink, found.label, found.letter, colour, threshold);
    for (let i = 0; i < gaps.length; i += 1) if (off[i]) ink[i] = 0;
    if (onLetter >= Math.max(3, found.letter.area * 0.02)) found = inkBlobs(ink, width, height);
    if (!found) return result;
    for (let i = 0; i < gaps.length; i += 1) if (off[i]) found.label[i] = -2; // not drawn into the glyph
  }
  const { label, marks, letter } = found;
  if (!letter) return result;
  const tall = letter.y1 - letter.y0 + 1;
  result.letter = { x0: letter.x0, y0: letter.y0, x1: letter.x1, y1: letter.y1 };
  result.height = tall / height;
  for (const other of marks) {
    if (other === letter) continue;
    const otherTall = other.y1 - other.y0 + 1;
    const overlaps = other.x0 <= letter.x1 && other.x1 >= letter.x0 && other.y0 <= letter.y1 && other.y1 >= letter.y0;
    const sideBySide = Math.abs((other.y0 + other.y1) - (letter.y0 + letter.y1)) / 2 < tall * 0.25;
    // A second character of the same height beside it: a label such as "2L" or "TW".
    if (!overlaps && sideBySide && otherTall >= tall * 0.7) result.label = true;
  }
  // Wider than most capitals: two characters run together ("TW"), a label, unless
  // the classifier is sure it is a wide bold W or M (reader.js).
  result.wide = letter.x1 - letter.x0 + 1 > tall * 1.5;
  result.corners = cornerInk(ink, label, width, height, letter.id);
  result.glyph = glyphOf(gaps, label, width, letter, threshold);
  result.cuts = CORNERS.map((corner) => cutGlyph(gaps, label, width, height, letter, threshold, corner));
  return result;
}

// The letter less one corner of the square (top left, top right, bottom left,
// bottom right), or null if it does not reach in there. On a small tile a
// point value can touch the letter, and the two read as one (an I with a value
// by its foot looks like a J); reader.js reads the letter less the corner the
// game prints values in when the whole is in doubt.
const CORNERS = [0, 1, 2, 3];
function cutGlyph(gaps, label, width, height, letter, threshold, corner) {
  const right = corner % 2 === 1;
  const bottom = corner >= 2;
  const cx = right ? width * 0.68 : width * 0.32;
  const cy = bottom ? height * 0.7 : height * 0.3;
  const inside = (x, y) => (right ? x >= cx : x <= cx) && (bottom ? y >= cy : y <= cy);
  if (!inside(right ? letter.x1 : letter.x0, bottom ? letter.y1 : letter.y0)) return null;
  const kept = new Int32Array(label);
  const part = { id: letter.id, x0: width, y0: height, x1: -1, y1: -1 };
  for (let y = letter.y0; y <= letter.y1; y += 1) {
    for (let x = letter.x0; x <= letter.x1; x += 1) {
      const i = y * width + x;
      if (label[i] !== letter.id) continue;
      if (inside(x, y)) {
        kept[i] = -3;
      } else {
        part.x0 = Math.min(part.x0, x);
        part.x1 = Math.max(part.x1, x);
        part.y0 = Math.min(part.y0, y);
        part.y1 = Math.max(part.y1, y);
      }
    }
  }
  return part.x1 < 0 ? null : glyphOf(gaps, kept, width, part, threshold);
}

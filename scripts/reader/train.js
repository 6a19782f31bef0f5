// Runs in Chromium (scripts/train_reader.py): draws every letter in many fonts,
// sizes and colours onto a square, reads it back with the reader's own code
// (marks.js), and trains the classifier on what the reader sees.

import { GLYPH, readMarks } from "/frontend/js/solver/reader/marks.js";

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
// Not letters, read as the last class: stars, digits and symbols on premium squares.
// (No × or ✱: too like an X.)
const MARKS = ["★", "☆", "✦", "●", "2", "3", "4", "+", "?", "♦"];
export const CLASSES = `${LETTERS}*`;

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];

function colours(rand) {
  const light = [[243, 217, 164], [255, 255, 255], [250, 240, 200], [230, 230, 235], [255, 225, 77], [200, 230, 250]];
  const dark = [[40, 40, 48], [20, 60, 110], [90, 30, 40], [30, 90, 60], [60, 60, 60]];
  const ink = (c) => `rgb(${c.join(",")})`;
  if (rand() < 0.7) return { face: ink(pick(rand, light)), ink: ink(pick(rand, [[20, 20, 20], [60, 40, 20], [138, 75, 0], [30, 30, 90]])) };
  return { face: ink(pick(rand, dark)), ink: ink(pick(rand, [[255, 255, 255], [250, 230, 180], [230, 230, 230]])) };
}

function jpegRoundTrip(canvas, quality) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => {
      const ctx = canvas.getContext("2d");
      ctx.drawImage(img, 0, 0);
      resolve();
    };
    img.src = canvas.toDataURL("image/jpeg", quality);
  });
}

// One square with `text` on it, read back as a glyph (or null if none was found).
async function sample(text, font, rand, canvas) {
  // Small squares more often: a desktop screenshot's rack tile is about 30 pixels.
  const cell = Math.round(14 + rand() ** 1.5 * 54);
  canvas.width = cell;
  canvas.height = cell;
  const ctx = canvas.getContext("2d");
  const { face, ink } = colours(rand);
  ctx.fillStyle = face;
  ctx.fillRect(0, 0, cell, cell);
  const size = cell * (0.45 + rand() * 0.4);
  ctx.font = `${font.style} ${font.weight} ${size.toFixed(1)}px "${font.family}"`;
  ctx.fillStyle = ink;
  // A soft edge sometimes, as a photo of a screen or a resampled screenshot has.
  ctx.filter = rand() < 0.25 ? `blur(${(0.3 + rand() * 0.6).toFixed(2)}px)` : "none";
  const m = ctx.measureText(text);
  const w = m.actualBoundingBoxLeft + m.actualBoundingBoxRight;
  const h = m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
  const x = (cell - w) / 2 + m.actualBoundingBoxLeft + (rand() - 0.5) * cell * 0.12;
  const y = (cell - h) / 2 + m.actualBoundingBoxAscent + (rand() - 0.5) * cell * 0.12;
  ctx.fillText(text, x, y);
  if (rand() < 0.6) {
    // A point value in a corner, as most games draw it.
    // In any corner, sometimes close enough to touch the letter (a Q's tail), as on small tiles.
    const near = rand() < 0.45;
    ctx.font = `${font.weight} ${(cell * (near ? 0.2 + rand() * 0.08 : 0.22)).toFixed(1)}px "${font.family}"`;
    const value = rand() < 0.3 ? "10" : String(1 + Math.floor(rand() * 9));
    const vw = ctx.measureText(value).width;
    const right = rand() < 0.7;
    const bottom = rand() < 0.7;
    const left = x - m.actualBoundingBoxLeft;
    let vx = right ? cell * 0.95 - vw : cell * 0.05;
    let vy = bottom ? cell * 0.95 : cell * 0.27;
    if (near) {
      vx = right ? left + w * (0.7 + rand() * 0.3) : left - vw * (0.7 + rand() * 0.3);
      vy = bottom ? y + m.actualBoundingBoxDescent + cell * (0.04 + rand() * 0.14) : y - h + cell * (0.1 + rand() * 0.08);
    }
    ctx.fillText(value, Math.max(0, Math.min(vx, cell - vw)), Math.max(cell * 0.2, Math.min(vy, cell * 0.98)));
  }
  ctx.filter = "none";
  if (rand() < 0.35) await jpegRoundTrip(canvas, 0.5 + rand() * 0.4);
  const image = ctx.getImageData(0, 0, cell, cell);
  const inset = cell * 0.07;
  const marks = readMarks(image, inset, inset, cell - inset, cell - inset);
  return marks.glyph;
}

export async function makeSamples(fonts, perFont, seed) {
  const rand = rng(seed);
  const canvas = document.createElement("canvas");
  const samples = [];
  for (const font of fonts) {
    for (let round = 0; round < perFont; round += 1) {
      for (let c = 0; c < LETTERS.length; c += 1) {
        const glyph = await sample(LETTERS[c], font, rand, canvas);
        if (glyph) samples.push({ glyph, label: c });
      }
      for (let k = 0; k < 3; k += 1) {
        const glyph = await sample(pick(rand, MARKS), font, rand, canvas);
        if (glyph) samples.push({ glyph, label: LETTERS.length });
      }
    }
  }
  return samples;
}

// --- a two-layer network, trained by stochastic gradient descent ----------------

function init(rand, inputs, outputs) {
  const limit = Math.sqrt(6 / (inputs + outputs));
  return {
    w: Float32Array.from({ length: inputs * outputs }, () => (rand() * 2 - 1) * limit),
    b: new Float32Array(outputs),
    inputs,
    outputs,
  };
}

function forward(layers, x) {
  const acts = [x];
  layers.forEach((l, index) => {
    const out = new Float32Array(l.outputs);
    for (let o = 0; o < l.outputs; o += 1) {
      let sum = l.b[o];
      const row = o * l.inputs;
      for (let i = 0; i < l.inputs; i += 1) sum += l.w[row + i] * x[i];
      out[o] = index < layers.length - 1 ? Math.max(0, sum) : sum;
    }
    acts.push(out);
    x = out;
  });
  return acts;
}

function softmax(z) {
  const top = Math.max(...z);
  const e = Array.from(z, (v) => Math.exp(v - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / total);
}

function step(layers, sample, rate) {
  const acts = forward(layers, sample.glyph);
  const probs = softmax(acts[acts.length - 1]);
  let delta = Float32Array.from(probs, (p, k) => p - (k === sample.label ? 1 : 0));
  for (let li = layers.length - 1; li >= 0; li -= 1) {
    const l = layers[li];
    const input = acts[li];
    const back = new Float32Array(l.inputs);
    for (let o = 0; o < l.outputs; o += 1) {
      const d = delta[o];
      if (d === 0) continue;
      const row = o * l.inputs;
      for (let i = 0; i < l.inputs; i += 1) {
        back[i] += l.w[row + i] * d;
        l.w[row + i] -= rate * d * input[i];
      }
      l.b[o] -= rate * d;
    }
    if (li > 0) for (let i = 0; i < back.length; i += 1) back[i] = acts[li][i] > 0 ? back[i] : 0;
    delta = back;
  }
  return -Math.log(Math.max(1e-9, probs[sample.label]));
}

function accuracy(layers, samples) {
  let right = 0;
  for (const s of samples) {
    const z = forward(layers, s.glyph).at(-1);
    if (z.indexOf(Math.max(...z)) === s.label) right += 1;
  }
  return right / Math.max(1, samples.length);
}

function pack(l) {
  let top = 0;
  for (const v of l.w) top = Math.max(top, Math.abs(v));
  const scale = top / 127 || 1;
  const bytes = Int8Array.from(l.w, (v) => Math.round(v / scale));
  let text = "";
  for (const b of new Uint8Array(bytes.buffer)) text += String.fromCharCode(b);
  return { weights: btoa(text), scale, bias: Array.from(l.b, (v) => Number(v.toFixed(5))) };
}

export function train(samples, { hidden = 64, epochs = 25, seed = 7 } = {}) {
  const rand = rng(seed);
  const order = samples.slice();
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const held = order.slice(0, Math.floor(order.length / 10));
  const fit = order.slice(held.length);
  const layers = [init(rand, GLYPH * GLYPH, hidden), init(rand, hidden, CLASSES.length)];
  const log = [];
  for (let epoch = 0; epoch < epochs; epoch += 1) {
    const rate = 0.02 * (1 - epoch / epochs) + 0.002;
    let loss = 0;
    for (const s of fit) loss += step(layers, s, rate);
    log.push({ epoch, loss: loss / fit.length });
  }
  return {
    model: { classes: CLASSES, layers: layers.map(pack) },
    trainAccuracy: accuracy(layers, fit),
    heldOutAccuracy: accuracy(layers, held),
    samples: samples.length,
    log,
  };
}

// Runs in Chromium (scripts/reader_images.py): draws a whole phone or tablet
// screenshot of a tile game in one of three made-up styles, unlike our own pages
// and unlike each other: palette, font, tile shape, premium labels, where the
// rack sits, and the app around the board.

const LABELS = {
  night: { T: "TW", D: "DW", t: "TL", d: "DL", "*": "★" },
  paper: { T: ["TRIPLE", "WORD"], D: ["DOUBLE", "WORD"], t: ["TRIPLE", "LETTER"], d: ["DOUBLE", "LETTER"], "*": "✦" },
  bright: { T: "3W", D: "2W", t: "3L", d: "2L", "*": "★" },
};

export const STYLES = {
  night: {
    width: 1080, height: 2340, background: "#14161c", gaps: "#0b0c10", gap: 4, empty: "#272b36",
    premiums: { T: "#8a2f3f", D: "#6f4785", t: "#1f6f8b", d: "#2f7d62", "*": "#6f4785" },
    labelInk: "#e9e9ee", labelFont: "700 {s}px 'DejaVu Sans'", labelSize: 0.26,
    tile: "#f2e3c6", tileInk: "#1c1c1c", tileFont: "700 {s}px 'Liberation Sans'", letterSize: 0.62,
    valueCorner: "top-right", round: 0.16, text: "#e9e9ee",
  },
  paper: {
    width: 2048, height: 1536, background: "#f7f1e3", gaps: "#6d604a", gap: 2, empty: "#efe6d2",
    premiums: { T: "#c94f3d", D: "#e8a0a0", t: "#3d6fc9", d: "#a9c8ea", "*": "#e8a0a0" },
    labelInk: "#2b2418", labelFont: "700 {s}px 'Nimbus Roman'", labelSize: 0.15,
    tile: "#fffdf6", tileInk: "#111111", tileFont: "700 {s}px 'Liberation Serif'", letterSize: 0.66,
    valueCorner: "bottom-right", round: 0, border: "#333333", text: "#2b2418",
  },
  bright: {
    width: 828, height: 1792, background: "#ffffff", gaps: "#ffffff", gap: 3, empty: "#e9e9f1",
    premiums: { T: "#ff7a59", D: "#ffb3c7", t: "#4cc3ff", d: "#b5ecc4", "*": "#ffb3c7" },
    labelInk: "#3a3550", labelFont: "600 {s}px 'URW Gothic'", labelSize: 0.3,
    tile: ["#6a3fd0", "#9b6cf5"], tileInk: "#ffffff", tileFont: "600 {s}px 'URW Gothic'", letterSize: 0.6,
    valueCorner: "bottom-left", round: 0.22, text: "#3a3550",
  },
};

function font(spec, size) {
  return spec.replace("{s}", size.toFixed(1));
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
  ctx.fill();
}

function centred(ctx, text, cx, cy) {
  const m = ctx.measureText(text);
  const h = m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
  ctx.fillText(text, cx - (m.actualBoundingBoxRight - m.actualBoundingBoxLeft) / 2, cy - h / 2 + m.actualBoundingBoxAscent);
}

// One tile: its face, the letter, and the value unless it is a blank.
function tile(ctx, style, x, y, size, letter, value) {
  if (Array.isArray(style.tile)) {
    const g = ctx.createLinearGradient(0, y, 0, y + size);
    g.addColorStop(0, style.tile[0]);
    g.addColorStop(1, style.tile[1]);
    ctx.fillStyle = g;
  } else {
    ctx.fillStyle = style.tile;
  }
  roundRect(ctx, x, y, size, size, size * style.round);
  if (style.border) {
    ctx.strokeStyle = style.border;
    ctx.lineWidth = Math.max(1, size * 0.03);
    ctx.strokeRect(x + 1, y + 1, size - 2, size - 2);
  }
  ctx.fillStyle = style.tileInk;
  if (letter) {
    ctx.font = font(style.tileFont, size * style.letterSize);
    centred(ctx, letter, x + size / 2, y + size * 0.5);
  }
  if (value !== null) {
    ctx.font = font(style.tileFont, size * 0.22);
    const v = String(value);
    const w = ctx.measureText(v).width;
    const right = style.valueCorner.endsWith("right");
    const top = style.valueCorner.startsWith("top");
    ctx.fillText(v, right ? x + size * 0.93 - w : x + size * 0.08, top ? y + size * 0.26 : y + size * 0.92);
  }
}

function square(ctx, style, name, x, y, size, mark) {
  ctx.fillStyle = mark ? style.premiums[mark] : style.empty;
  ctx.fillRect(x, y, size, size);
  if (!mark) return;
  const label = LABELS[name][mark];
  ctx.fillStyle = style.labelInk;
  if (Array.isArray(label)) {
    ctx.font = font(style.labelFont, size * style.labelSize);
    centred(ctx, label[0], x + size / 2, y + size * 0.36);
    centred(ctx, label[1], x + size / 2, y + size * 0.64);
  } else {
    ctx.font = font(style.labelFont, size * (mark === "*" ? 0.55 : style.labelSize));
    centred(ctx, label, x + size / 2, y + size / 2);
  }
}

function board(ctx, style, name, game, left, top, side) {
  const cell = side / 15;
  ctx.fillStyle = style.gaps;
  ctx.fillRect(left - style.gap, top - style.gap, side + style.gap * 2, side + style.gap * 2);
  for (let row = 0; row < 15; row += 1) {
    for (let col = 0; col < 15; col += 1) {
      const x = left + col * cell + style.gap / 2;
      const y = top + row * cell + style.gap / 2;
      const size = cell - style.gap;
      const ch = game.board[row][col];
      if (ch === ".") {
        const mark = game.layout[row][col];
        square(ctx, style, name, x, y, size, mark === "." ? null : mark);
      } else {
        ctx.fillStyle = style.empty;
        ctx.fillRect(x, y, size, size);
        const blank = ch >= "a" && ch <= "z";
        tile(ctx, style, x, y, size, ch.toUpperCase(), blank ? null : game.values[ch]);
      }
    }
  }
}

function rackTiles(ctx, style, game, x, y, size, gap, across) {
  [...game.rack].forEach((ch, i) => {
    const tx = across ? x + i * (size + gap) : x;
    const ty = across ? y : y + i * (size + gap);
    tile(ctx, style, tx, ty, size, ch === "?" ? "" : ch, ch === "?" ? 0 : game.values[ch]);
  });
}

function text(ctx, colour, spec, size, words, x, y) {
  ctx.fillStyle = colour;
  ctx.font = font(spec, size);
  ctx.fillText(words, x, y);
}

function statusBar(ctx, colour, width, height) {
  text(ctx, colour, "600 {s}px 'DejaVu Sans'", height * 0.45, "9:41", height * 0.6, height * 0.68);
  ctx.fillStyle = colour;
  for (let i = 0; i < 4; i += 1) ctx.fillRect(width - height * (2.6 - i * 0.22), height * (0.62 - i * 0.08), height * 0.14, height * (0.1 + i * 0.08));
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.strokeRect(width - height * 1.4, height * 0.34, height * 0.9, height * 0.36);
  ctx.fillRect(width - height * 1.35, height * 0.38, height * 0.6, height * 0.28);
}

const DRAW = {
  night(ctx, style, game) {
    const { width } = style;
    statusBar(ctx, style.text, width, 80);
    for (const [i, who] of [game.names[0], game.names[1]].entries()) {
      ctx.fillStyle = i === 0 ? "#2b3140" : "#1d212b";
      roundRect(ctx, 24 + i * 528, 110, 504, 190, 28);
      text(ctx, style.text, "400 {s}px 'DejaVu Sans'", 40, who, 60 + i * 528, 180);
      text(ctx, "#f2c14e", "700 {s}px 'DejaVu Sans'", 64, String(game.scores[i]), 60 + i * 528, 262);
    }
    const side = width - 48;
    board(ctx, style, "night", game, 24, 360, side);
    const size = 132;
    const gap = 10;
    const count = Math.max(1, game.rack.length);
    rackTiles(ctx, style, game, (width - count * size - (count - 1) * gap) / 2, 360 + side + 80, size, gap, true);
    for (const [i, label] of ["Shuffle", "Swap", "Play"].entries()) {
      ctx.fillStyle = label === "Play" ? "#2f9e5b" : "#2b3140";
      roundRect(ctx, 24 + i * 350, 2020, 330, 130, 65);
      text(ctx, "#ffffff", "600 {s}px 'DejaVu Sans'", 44, label, 24 + i * 350 + 90, 2100);
    }
    ctx.fillStyle = "#e9e9ee";
    roundRect(ctx, width / 2 - 140, 2300, 280, 10, 5);
  },
  paper(ctx, style, game) {
    text(ctx, style.text, "700 {s}px 'Nimbus Roman'", 44, "Letterpress Club — your move", 60, 62);
    board(ctx, style, "paper", game, 60, 100, 1400);
    text(ctx, style.text, "700 {s}px 'Nimbus Roman'", 40, "Your tiles", 1560, 170);
    rackTiles(ctx, style, game, 1600, 200, 120, 22, false);
    for (const [i, who] of game.names.entries()) {
      text(ctx, style.text, "400 {s}px 'Nimbus Roman'", 38, `${who}  ${game.scores[i]}`, 1780, 260 + i * 60);
    }
    for (let i = 0; i < 8; i += 1) {
      text(ctx, "#6d604a", "400 {s}px 'Nimbus Roman'", 30, `Move ${i + 1}: ${["WORD", "PLAY", "TILE", "GAME"][i % 4]} ${10 + i * 3}`, 1780, 420 + i * 48);
    }
    ctx.fillStyle = "#6d604a";
    ctx.fillRect(1780, 1300, 200, 80);
    text(ctx, "#ffffff", "700 {s}px 'Nimbus Roman'", 36, "Submit", 1820, 1352);
  },
  bright(ctx, style, game) {
    const { width } = style;
    statusBar(ctx, "#222222", width, 60);
    ctx.fillStyle = "#5b2bd6";
    ctx.fillRect(0, 60, width, 130);
    text(ctx, "#ffffff", "600 {s}px 'URW Gothic'", 48, "Word Match", 40, 142);
    text(ctx, "#3a3550", "600 {s}px 'URW Gothic'", 34, `${game.names[0]} ${game.scores[0]} · ${game.names[1]} ${game.scores[1]}`, 40, 250);
    const side = width - 36;
    board(ctx, style, "bright", game, 18, 300, side);
    ctx.fillStyle = "#e8e0fb";
    roundRect(ctx, 18, 300 + side + 50, side, 150, 24);
    const size = 100;
    const gap = 10;
    rackTiles(ctx, style, game, 40, 300 + side + 75, size, gap, true);
    ctx.fillStyle = "#f4f2fa";
    ctx.fillRect(0, 1640, width, 152);
    for (let i = 0; i < 4; i += 1) {
      ctx.fillStyle = "#8f86b5";
      roundRect(ctx, 80 + i * 200, 1680, 56, 56, 14);
    }
  },
};

function encoded(canvas, format, quality) {
  return canvas.toDataURL(format === "jpeg" ? "image/jpeg" : "image/png", quality);
}

// The screenshot as a data: URL. `scale` resamples it afterwards (a screenshot
// shared at another size); `format` "jpeg" adds the artefacts of a shared photo.
export function drawScreenshot(name, game, { scale = 1, format = "png", quality = 0.8 } = {}) {
  const style = STYLES[name];
  const canvas = document.createElement("canvas");
  canvas.width = style.width;
  canvas.height = style.height;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = style.background;
  ctx.fillRect(0, 0, style.width, style.height);
  DRAW[name](ctx, style, game);
  if (scale === 1) return encoded(canvas, format, quality);
  const out = document.createElement("canvas");
  out.width = Math.round(style.width * scale);
  out.height = Math.round(style.height * scale);
  const octx = out.getContext("2d");
  octx.imageSmoothingQuality = "high";
  octx.drawImage(canvas, 0, 0, out.width, out.height);
  return encoded(out, format, quality);
}

// Any image (a JPEG) as a PNG data: URL, artefacts kept, for tests that decode PNG only.
export async function asPng(dataUrl) {
  const img = new Image();
  await new Promise((resolve) => {
    img.onload = resolve;
    img.src = dataUrl;
  });
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  canvas.getContext("2d").drawImage(img, 0, 0);
  return canvas.toDataURL("image/png");
}

// The Solver's "Upload a screenshot" control and review step: a picture from the
// file picker, the clipboard or a drop is drawn into a canvas and read on the
// device; the squares read are shown over the board to fix; Apply hands the
// board and rack to the page (`apply`), and nothing changes before that.

import { ReaderError, readScreenshot } from "../reader.js";
import { applied, doubts, fixRack, fixSquare, isDoubtful, rackDoubts, reviewOf, tilesRead } from "./review.js";

const SIZE = 15;
const percent = (c) => `${Math.round(c * 100)}%`;

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function pixelsOf(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new ReaderError("That file could not be opened as a picture. Choose a PNG or JPEG screenshot.");
  }
  const canvas = document.createElement("canvas");
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close?.();
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

export function mountReader({ apply, dropTarget }) {
  const $ = (id) => document.getElementById(id);
  const ui = {
    file: $("reader-file"),
    status: $("reader-status"),
    review: $("reader-review"),
    grid: $("reader-grid"),
    doubts: $("reader-doubts"),
    rack: $("reader-rack"),
    apply: $("reader-apply"),
    discard: $("reader-discard"),
  };
  let review = null;

  function say(text, error = false) {
    ui.status.textContent = text;
    ui.status.classList.toggle("status-error", error);
  }

  function buildGrid() {
    for (let row = 0; row < SIZE; row += 1) {
      for (let col = 0; col < SIZE; col += 1) {
        const input = el("input", {
          type: "text",
          class: "reader-sq",
          maxlength: "2",
          autocomplete: "off",
          autocorrect: "off",
          spellcheck: "false",
          "data-row": row,
          "data-col": col,
        });
        ui.grid.append(input);
      }
    }
  }

  function paint() {
    const open = review !== null;
    ui.review.hidden = !open;
    ui.grid.hidden = !open;
    if (!open) return;
    if (!ui.grid.children.length) buildGrid();
    for (const input of ui.grid.children) {
      const row = Number(input.dataset.row);
      const col = Number(input.dataset.col);
      const square = review.board[row][col];
      const shown = square === "." ? "" : square;
      if (input.value !== shown && document.activeElement !== input) input.value = shown;
      input.classList.toggle("reader-tile", square !== ".");
      input.classList.toggle("reader-blank", /[a-z]/.test(square));
      input.classList.toggle("reader-doubt", isDoubtful(review, row, col));
      const what = square === "." ? "empty" : /[a-z]/.test(square) ? `${square.toUpperCase()} (blank)` : square;
      input.setAttribute("aria-label", `Row ${row + 1}, column ${col + 1}: read ${what}, ${percent(review.confidence[row][col])} sure`);
    }
    const list = doubts(review);
    ui.doubts.replaceChildren(
      ...list.slice(0, 12).map(({ row, col, square, confidence }) => {
        const what = square === "." ? "empty" : /[a-z]/.test(square) ? `${square.toUpperCase()} (blank)` : square;
        const item = el("li");
        item.append(el("button", { type: "button", class: "reader-goto", "data-row": row, "data-col": col }, `Row ${row + 1}, column ${col + 1}: ${what}, ${percent(confidence)} sure`));
        return item;
      }),
    );
    if (ui.rack.value !== review.rack && document.activeElement !== ui.rack) ui.rack.value = review.rack;
    ui.rack.classList.toggle("reader-doubt", rackDoubts(review) > 0);
  }

  async function read(file) {
    if (!file) return;
    if (file.type && !file.type.startsWith("image/")) {
      say("That file is not a picture. Choose a screenshot (PNG or JPEG).", true);
      return;
    }
    say("Reading the screenshot…");
    await nextFrame();
    try {
      const reading = readScreenshot(await pixelsOf(file));
      review = reviewOf(reading);
      const unsure = doubts(review).length;
      const tiles = tilesRead(review);
      say(
        `Read ${tiles} tile${tiles === 1 ? "" : "s"} and a rack of ${review.rack.length}. ` +
          (unsure ? `${unsure} square${unsure === 1 ? "" : "s"} to check, marked in orange.` : "Check it, then apply."),
      );
    } catch (error) {
      review = null;
      say(error instanceof ReaderError ? error.message : "The reader could not read that picture.", true);
    }
    paint();
  }

  ui.file.addEventListener("change", () => {
    read(ui.file.files[0]);
    ui.file.value = "";
  });

  document.addEventListener("paste", (event) => {
    const item = [...(event.clipboardData?.items ?? [])].find((i) => i.type.startsWith("image/"));
    if (!item) return;
    event.preventDefault();
    read(item.getAsFile());
  });

  for (const target of [dropTarget, ui.grid]) {
    target.addEventListener("dragover", (event) => {
      if (![...(event.dataTransfer?.types ?? [])].includes("Files")) return;
      event.preventDefault();
      target.classList.add("reader-drop");
    });
    target.addEventListener("dragleave", () => target.classList.remove("reader-drop"));
    target.addEventListener("drop", (event) => {
      if (!event.dataTransfer?.files?.length) return;
      event.preventDefault();
      target.classList.remove("reader-drop");
      read(event.dataTransfer.files[0]);
    });
  }

  ui.grid.addEventListener("input", (event) => {
    const input = event.target.closest(".reader-sq");
    if (!input || !review) return;
    review = fixSquare(review, Number(input.dataset.row), Number(input.dataset.col), input.value);
    const square = review.board[Number(input.dataset.row)][Number(input.dataset.col)];
    input.value = square === "." ? "" : square;
    paint();
  });

  ui.grid.addEventListener("focusin", (event) => event.target.select?.());

  ui.doubts.addEventListener("click", (event) => {
    const button = event.target.closest(".reader-goto");
    if (!button) return;
    ui.grid.children[Number(button.dataset.row) * SIZE + Number(button.dataset.col)].focus();
  });

  ui.rack.addEventListener("input", () => {
    if (!review) return;
    review = fixRack(review, ui.rack.value);
    ui.rack.value = review.rack;
    paint();
  });

  ui.apply.addEventListener("click", () => {
    if (!review) return;
    const { board, rack } = applied(review);
    review = null;
    paint();
    say("");
    apply(board, rack);
  });

  ui.discard.addEventListener("click", () => {
    review = null;
    paint();
    say("The screenshot was put aside; your board is as it was.");
  });
}


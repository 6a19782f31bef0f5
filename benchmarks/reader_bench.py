"""The screenshot reader's accuracy per style and its time per image in Chromium.

    python scripts/reader_images.py               # first: 245 images in build/reader-images
    python benchmarks/reader_bench.py [--dir build/reader-images] [--throttle 4]

Each image is read in Chromium as the Solver page reads it (decoded, drawn into a
canvas, `readScreenshot` on its ImageData), with the CPU slowed by `--throttle`
through the DevTools protocol (Emulation.setCPUThrottlingRate: 4 is a mid-range
phone). Reports per style: squares right (tile or empty, and its letter and
blank), rack tiles right (position by position), images refused, images where a
wrong square or rack tile was given with confidence at or above the review's
threshold ("silently wrong"), and the time to decode and to read. The images are
made by a script and were not used to train the classifier (that draws single
glyphs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "reader"))
from harness import ROOT, chromium, repo_server

READ = """async (url) => {
    const { readScreenshot, LOW_CONFIDENCE } = await import('/frontend/js/solver/reader.js');
    const blob = await (await fetch(url)).blob();
    const started = performance.now();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(bitmap, 0, 0);
    const image = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    const decoded = performance.now();
    try {
        const r = readScreenshot(image);
        return { ...r, low: LOW_CONFIDENCE, decodeMs: decoded - started,
                 readMs: performance.now() - decoded };
    } catch (error) {
        return { refused: String(error.message), decodeMs: decoded - started,
                 readMs: performance.now() - decoded };
    }
}"""


def score(truth: dict, got: dict) -> dict:
    if "refused" in got:
        return {"squares": 0, "rack": 0, "refused": 1, "silent": 0}
    squares = silent = 0
    for r in range(15):
        for c in range(15):
            if got["board"][r][c] == truth["board"][r][c]:
                squares += 1
            elif got["confidence"][r][c] >= got["low"]:
                silent = 1
    want, read = truth["rack"], got["rack"]
    rack = sum(1 for i, ch in enumerate(want) if i < len(read) and read[i] == ch)
    # A rack tile read wrong (or read where there is none) and given as sure, too.
    for i, ch in enumerate(read):
        if (i >= len(want) or want[i] != ch) and got["rackConfidence"][i] >= got["low"]:
            silent = 1
    rack -= max(0, len(read) - len(want))  # a tile read that is not there is a miss too
    return {"squares": squares, "rack": max(0, rack), "refused": 0, "silent": silent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "reader-images")
    parser.add_argument("--throttle", type=float, default=4)
    parser.add_argument("--limit", type=int, default=0, help="only this many images per style")
    args = parser.parse_args()
    images = sorted(p.resolve() for p in args.dir.iterdir() if p.suffix in (".png", ".jpg"))
    if not images:
        sys.exit(f"no images in {args.dir}: run scripts/reader_images.py first")
    rows: dict[str, list[tuple[dict, dict, dict]]] = defaultdict(list)
    with repo_server() as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/scripts/reader/blank.html")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        page.evaluate(READ, f"/{images[0].relative_to(ROOT)}")  # modules loaded, JIT warm
        for path in images:
            truth = json.loads(path.with_suffix(".json").read_text())
            if args.limit and len(rows[truth["style"]]) >= args.limit:
                continue
            url = "/" + str(path.resolve().relative_to(ROOT))
            got = page.evaluate(READ, url)
            rows[truth["style"]].append((truth | {"file": path.name}, got, score(truth, got)))
    print(f"CPU throttled {args.throttle}x; {sum(len(v) for v in rows.values())} images\n")
    print(
        "| style | images | squares right | rack tiles right | refused | silently wrong "
        "| read ms (median / max) | decode ms (median) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    total = defaultdict(float)
    for style, items in sorted(rows.items()):
        squares = sum(s["squares"] for _, _, s in items)
        rack = sum(s["rack"] for _, _, s in items)
        tiles = sum(len(t["rack"]) for t, _, _ in items)
        refused = sum(s["refused"] for _, _, s in items)
        silent = sum(s["silent"] for _, _, s in items)
        reads = [g["readMs"] for _, g, _ in items]
        decodes = [g["decodeMs"] for _, g, _ in items]
        print(
            f"| {style} | {len(items)} | {100 * squares / (225 * len(items)):.2f} % "
            f"| {100 * rack / max(1, tiles):.2f} % | {refused} | {silent} "
            f"| {statistics.median(reads):.0f} / {max(reads):.0f} "
            f"| {statistics.median(decodes):.0f} |"
        )
        for key, value in (("images", len(items)), ("squares", squares), ("rack", rack)):
            total[key] += value
        total["tiles"] += tiles
        total["refused"] += refused
        total["silent"] += silent
        total["slowest"] = max(total["slowest"], max(reads))
    print(
        f"| all | {total['images']:.0f} | {100 * total['squares'] / (225 * total['images']):.2f} % "
        f"| {100 * total['rack'] / max(1, total['tiles']):.2f} % | {total['refused']:.0f} "
        f"| {total['silent']:.0f} | slowest {total['slowest']:.0f} | |"
    )
    for _, items in sorted(rows.items()):
        for truth, got, s in items:
            if s["squares"] < 225 or s["rack"] < len(truth["rack"]) or s["refused"]:
                what = got.get("refused") or f"rack {truth['rack']} read {got['rack']}"
                print(f"  {truth['file']}: {225 - s['squares']} squares wrong; {what}")


if __name__ == "__main__":
    main()

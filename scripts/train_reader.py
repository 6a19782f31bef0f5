"""Train the screenshot reader's letter classifier and write its model file.

    python scripts/train_reader.py      # writes frontend/js/solver/reader/model.js

Every letter (and a few non-letter marks: stars, digits) is drawn in Chromium in
each training font, bold and italic, at many sizes and colours, some passed
through JPEG, then read back by the reader's own code (marks.js), so the
classifier learns from exactly what the reader sees. The fonts are the ones
Debian packages (fonts-dejavu, fonts-liberation, fonts-freefont-ttf,
fonts-urw-base35); URW Gothic is kept out, for a test style in a font the
classifier never saw (scripts/reader_images.py).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "reader"))
from harness import ROOT, chromium, repo_server

MODEL = ROOT / "frontend" / "js" / "solver" / "reader" / "model.js"
FAMILIES = [
    "DejaVu Sans",
    "DejaVu Sans Condensed",
    "DejaVu Serif",
    "DejaVu Serif Condensed",
    "DejaVu Sans Mono",
    "Liberation Sans",
    "Liberation Sans Narrow",
    "Liberation Serif",
    "Liberation Mono",
    "FreeSans",
    "FreeSerif",
    "FreeMono",
    "Nimbus Sans",
    "Nimbus Roman",
    "Nimbus Mono PS",
    "C059",
    "P052",
    "URW Bookman",
]
HELD_OUT = "URW Gothic"


def installed_families() -> set[str]:
    out = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=True)
    return {name.strip() for line in out.stdout.splitlines() for name in line.split(",")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-font", type=int, default=3, help="samples of each letter per face")
    parser.add_argument("--epochs", type=int, default=25)
    parser.add_argument("--hidden", type=int, default=64)
    args = parser.parse_args()
    have = installed_families()
    missing = [family for family in FAMILIES if family not in have]
    if missing:
        sys.exit(
            f"missing fonts {missing}: apt-get install fonts-dejavu fonts-liberation "
            "fonts-freefont-ttf fonts-urw-base35"
        )
    fonts = [
        {"family": family, "weight": weight, "style": style}
        for family in FAMILIES
        for weight in ("400", "700")
        for style in ("normal", "italic")
    ]
    started = time.monotonic()
    with repo_server() as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/scripts/reader/blank.html")
        result = page.evaluate(
            """async ([fonts, perFont, epochs, hidden]) => {
                const t = await import('/scripts/reader/train.js');
                const samples = await t.makeSamples(fonts, perFont, 11);
                return t.train(samples, {epochs, hidden});
            }""",
            [fonts, args.per_font, args.epochs, args.hidden],
        )
    model = json.dumps(result["model"], separators=(",", ":"))
    MODEL.write_text(
        "// Written by scripts/train_reader.py; do not edit by hand.\n"
        f"export const MODEL = {model};\n"
    )
    print(
        f"{result['samples']} glyphs from {len(fonts)} faces; "
        f"training accuracy {result['trainAccuracy']:.4f}, "
        f"held-out glyphs {result['heldOutAccuracy']:.4f}; "
        f"{MODEL.stat().st_size} bytes; {time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main()

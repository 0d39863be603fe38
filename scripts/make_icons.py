"""Draws the home-screen icons of the web game (run by hand; the PNGs are committed).

    .venv/bin/python scripts/make_icons.py   # needs Pillow and DejaVu Sans Bold

icon-192.png and icon-512.png: a card on the table's green, rounded corners; icon-maskable-512.png:
the same card inside the maskable safe zone (the middle 80%) on a full green square, so a
phone may cut it to any shape.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parents[1] / "src" / "unogame" / "server" / "static"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
FELT = (15, 81, 50, 255)
CARD = (38, 38, 38, 255)
RED = (198, 40, 40, 255)
YELLOW = (255, 213, 79, 255)


def card(size: int) -> Image.Image:
    """The game's card (icon.svg) drawn ``size`` pixels high, on a transparent square."""
    scale = 4  # drawn large, then shrunk: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width, height = big * 60 // 90, big
    left = (big - width) // 2
    draw.rounded_rectangle((left, 0, left + width, height - 1), radius=big * 8 // 90, fill=CARD)
    oval = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(oval).ellipse((big // 2 - width // 3, big // 2 - height // 3,
                                  big // 2 + width // 3, big // 2 + height // 3), fill=RED)
    image.alpha_composite(oval.rotate(-20, resample=Image.Resampling.BICUBIC))
    font = ImageFont.truetype(FONT, big * 16 // 90)
    draw.text((big // 2, big // 2), "UNO", font=font, fill=YELLOW, anchor="mm")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def icon(size: int, *, maskable: bool) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    if maskable:
        ImageDraw.Draw(image).rectangle((0, 0, size, size), fill=FELT)
        inner = size * 62 // 100  # the card's height inside the 80% safe circle
    else:
        ImageDraw.Draw(image).rounded_rectangle((0, 0, size - 1, size - 1),
                                                radius=size // 5, fill=FELT)
        inner = size * 80 // 100
    drawn = card(inner)
    image.alpha_composite(drawn, ((size - inner) // 2, (size - inner) // 2))
    return image


def main() -> None:
    for size in (192, 512):
        icon(size, maskable=False).save(STATIC / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(STATIC / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()

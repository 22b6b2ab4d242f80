#!/usr/bin/env python3
"""Renders `hwaccel plan --svg` in headless Chromium (Debian `chromium`) and
checks the picture is not blank: the SVG parses as XML, the PNG decodes, has
more than one colour and a fair share of non-white pixels.

Usage: render_roofline.py HWACCEL SOURCE_DIR
Exit 0: passed; 1: failed; 77: skipped (no chromium and CI is not "true").
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SKIP = 77


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def decode_png(data):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail(f"PNG of a kind this reader does not decode (depth {depth}, colour {colour})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[at]
        line = bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    hwaccel, source = sys.argv[1], sys.argv[2]
    chromium = shutil.which("chromium")
    if not chromium:
        message = "chromium is not installed (Debian package `chromium`; ci/setup render installs it)"
        if os.environ.get("CI") == "true":
            fail(message)
        print("SKIP: " + message)
        sys.exit(SKIP)
    work = tempfile.mkdtemp(prefix="hwaccel-roofline-")
    try:
        svg = os.path.join(work, "roofline.svg")
        plan = subprocess.run(
            [hwaccel, "plan", "--host", os.path.join(source, "fixtures/hosts/dgx-h100.yaml"),
             "--model", "Llama-3-70B", "--svg", svg], capture_output=True, text=True, timeout=120)
        if plan.returncode != 0:
            fail(f"hwaccel plan --svg exited {plan.returncode}: {plan.stderr}")
        root = ET.parse(svg).getroot()  # raises on XML that is not well-formed
        if root.tag != "{http://www.w3.org/2000/svg}svg":
            fail("root element is " + root.tag)
        width, height = int(root.get("width")), int(root.get("height"))
        png = os.path.join(work, "roofline.png")
        profile = os.path.join(work, "profile")
        # As root Chromium needs --no-sandbox; a private profile keeps runs apart.
        shot = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--user-data-dir=" + profile, "--screenshot=" + png,
             f"--window-size={width},{height}", "file://" + svg],
            capture_output=True, text=True, timeout=120)
        if shot.returncode != 0 or not os.path.exists(png):
            fail(f"chromium exited {shot.returncode}: {shot.stderr[-2000:]}")
        w, h, channels, rows = decode_png(open(png, "rb").read())
        colours, dark = set(), 0
        for row in rows:
            for x in range(w):
                px = row[x * channels:x * channels + 3]
                colours.add(px)
                if sum(px) < 600:
                    dark += 1
        share = dark / float(w * h)
        print(f"rendered {w}x{h}: {len(colours)} colours, {dark} non-white pixels ({share:.2%})")
        if len(colours) < 8:
            fail(f"only {len(colours)} colours: blank or nearly")
        if share < 0.01:
            fail(f"only {share:.2%} of the pixels are drawn on")
        if (w, h) != (width, height):
            fail(f"screenshot is {w}x{h}, the SVG {width}x{height}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Image files read safely: the size comes from the file's header, before any pixel is decoded.

A decoder allocates the whole picture first: a 1 MB PNG that says 32000×32000 takes 3 GB, a 20000×20000 JPEG
1.2 GB, more than a Raspberry Pi has. :func:`read_image` refuses a picture over :data:`MAX_PIXELS`, decodes a big
JPEG at 1/2, 1/4 or 1/8 of its size (JPEG can, without decoding the rest) to stay under :data:`DECODE_PIXELS`,
refuses other big formats, and names a file whose end is missing (OpenCV reads half a JPEG with only an unnamed
warning on stderr). Formats: JPEG, PNG, BMP, WebP; the header parsing is the standard library's.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_PIXELS = 400_000_000  # 20000×20000: above this nothing is decoded at all, whatever the format
DECODE_PIXELS = 24_000_000  # what is decoded at most (72 MB as BGR): a 48 MP phone photo is read at 1/2
MAX_FILE_BYTES = 200 * 1024 * 1024  # bigger than any photo; a JPEG is read whole to check its end


class ImageRefused(ValueError):
    """An image that is not read: unknown format, too big to decode, or truncated past reading; the message
    names the file."""


@dataclass
class Image:
    """Decoded BGR pixels and what the players (or the log) should know about them."""

    pixels: Any  # numpy array, H×W×3 uint8
    size: tuple[int, int]  # the picture's own width and height, from its header
    truncated: bool = False
    notes: list[str] = field(default_factory=list)
    factor: int = 1  # decoded at 1/factor of the picture's size (picture px = decoded px x factor)


def image_header(path: str | Path) -> tuple[str, int, int]:
    """``(format, width, height)`` from the file's first bytes; :class:`ImageRefused` for anything else."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(32)
            if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
                width, height = struct.unpack(">II", head[16:24])
                return "png", width, height
            if head.startswith(b"\xff\xd8"):
                return ("jpeg", *_jpeg_size(fh, path))
            if head.startswith(b"BM") and len(head) >= 26:
                width, height = struct.unpack("<ii", head[18:26])
                return "bmp", abs(width), abs(height)
            if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
                return ("webp", *_webp_size(head + fh.read(32), path))
    except OSError as err:
        raise ImageRefused(f"cannot read image {path}: {err.strerror or err}") from err
    raise ImageRefused(f"cannot read image {path}: not a JPEG, PNG, BMP or WebP image")


def _jpeg_size(fh: Any, path: Path) -> tuple[int, int]:
    """The frame size of a JPEG (its SOF segment), walking the segments from the start."""
    fh.seek(2)
    while True:
        marker = fh.read(2)
        while marker[:1] == b"\xff" and marker[1:2] == b"\xff":  # fill bytes
            marker = marker[1:] + fh.read(1)
        if len(marker) < 2 or marker[0] != 0xFF:
            raise ImageRefused(f"cannot read image {path}: a JPEG without a frame header (damaged or truncated)")
        kind = marker[1]
        if kind in (0xD8, 0x01) or 0xD0 <= kind <= 0xD7:
            continue
        length_bytes = fh.read(2)
        if len(length_bytes) < 2:
            raise ImageRefused(f"cannot read image {path}: truncated before its frame header")
        (length,) = struct.unpack(">H", length_bytes)
        if 0xC0 <= kind <= 0xCF and kind not in (0xC4, 0xC8, 0xCC):  # a start-of-frame segment
            data = fh.read(5)
            if len(data) < 5:
                raise ImageRefused(f"cannot read image {path}: truncated in its frame header")
            height, width = struct.unpack(">HH", data[1:5])
            return width, height
        if kind == 0xDA or length < 2:
            raise ImageRefused(f"cannot read image {path}: a JPEG without a frame header (damaged)")
        fh.seek(length - 2, 1)


def _webp_size(head: bytes, path: Path) -> tuple[int, int]:
    chunk = head[12:16]
    if chunk == b"VP8 " and len(head) >= 30:
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(head) >= 30:
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    raise ImageRefused(f"cannot read image {path}: a WebP image of an unknown kind")


def _truncated(path: Path, kind: str) -> bool:
    """True when the file stops before its image does: a JPEG with no end marker after its (first) scan, a PNG
    whose chunks end before IEND."""
    if kind == "jpeg":
        data = path.read_bytes()
        start = _jpeg_scan_start(data)
        return start is None or data.find(b"\xff\xd9", start) < 0
    if kind == "png":
        size = path.stat().st_size
        with open(path, "rb") as fh:
            offset = 8
            while offset + 8 <= size:
                fh.seek(offset)
                length, chunk = struct.unpack(">I4s", fh.read(8))
                if chunk == b"IEND":
                    return False
                offset += 12 + length
        return True
    return False


def _jpeg_scan_start(data: bytes) -> int | None:
    """Where a JPEG's entropy-coded data begins (after its first SOS segment); embedded thumbnails, which sit
    inside APP segments, are stepped over with them."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        kind = data[pos + 1]
        if kind == 0xFF:
            pos += 1
            continue
        if kind in (0xD8, 0x01) or 0xD0 <= kind <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if kind == 0xDA:
            return pos + 2 + int(length)
        pos += 2 + length
    return None


def read_image(path: str | Path, read_pixels: int | None = None) -> Image:
    """Decode ``path`` as BGR within the pixel limits (see the module docstring); :class:`ImageRefused` names the
    file and says why when it is not read. ``read_pixels``: the caller needs no more pixels than this, so a
    bigger JPEG is decoded at 1/2, 1/4 or 1/8 without a note (``Image.factor`` says which; the dice reader reads
    a 12 MP phone photo at 1/2 in a quarter of the memory)."""
    import cv2

    path = Path(path)
    if not path.is_file():
        raise ImageRefused(f"cannot read image {path}: no such file")
    kind, width, height = image_header(path)
    pixels = width * height
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ImageRefused(f"cannot read image {path}: {path.stat().st_size // 2**20} MB is more than a photo")
    if pixels > MAX_PIXELS or (pixels > DECODE_PIXELS and kind != "jpeg"):
        raise ImageRefused(
            f"cannot read image {path}: {width}×{height} is {pixels / 1e6:.0f} megapixels, more than the "
            f"{(MAX_PIXELS if kind == 'jpeg' else DECODE_PIXELS) / 1e6:.0f} that can be decoded here; save it smaller"
            + ("" if kind == "jpeg" else ", or as a JPEG")
        )
    notes: list[str] = []
    factor = reduction(pixels, DECODE_PIXELS)
    if factor > 1:
        notes.append(f"{width}×{height} decoded at 1/{factor} of its size")
    if kind == "jpeg" and read_pixels is not None:
        factor = max(factor, reduction(pixels, read_pixels))
    flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}.get(
        factor, cv2.IMREAD_REDUCED_COLOR_8
    )
    truncated = _truncated(path, kind)
    if truncated and kind != "jpeg":
        raise ImageRefused(f"cannot read image {path}: truncated (the end of the file is missing)")
    image = cv2.imread(str(path), flag)
    if image is None:
        raise ImageRefused(f"cannot read image {path}: damaged or an unsupported kind of {kind.upper()}")
    if truncated:
        notes.append("truncated: the end of the file is missing, so part of the picture is grey")
    return Image(image, (width, height), truncated, notes, factor)


def reduction(pixels: int, most: int) -> int:
    """The JPEG decoding reduction (1, 2, 4 or 8) that brings ``pixels`` to at most ``most`` (8 at the most)."""
    for factor in (1, 2, 4):
        if pixels // (factor * factor) <= most:
            return factor
    return 8

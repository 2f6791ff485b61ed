"""Dice input from files (issue #22, item 9): an image's size is read from its header and a huge one refused (or a
JPEG decoded smaller) before any pixel is decoded; a truncated image is read but named and flagged; ``dice eval``
refuses broken label files naming them. The real command runs as a subprocess; its peak memory is measured."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from procs import companion, no_traceback, peak_mb

from companion.vision.dataset import load_image
from hardware.imagefile import ImageRefused, image_header, read_image

SAMPLES = Path(__file__).resolve().parents[2] / "companion" / "vision" / "samples" / "felt-trays"
PHOTO = sorted((SAMPLES / "images").glob("*.jpg"))[0]


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def huge_png(path: Path, width: int = 32000, height: int = 32000) -> Path:
    """A real, valid PNG of ``width`` x ``height`` black pixels (1-bit grey): about 1 MB on disk."""
    row = b"\0" + b"\0" * ((width + 7) // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", body) + _png_chunk(b"IEND", b"")
    )
    return path


def huge_jpeg(path: Path, width: int = 20000, height: int = 20000) -> Path:
    """A small real JPEG whose frame header says ``width`` x ``height`` (what a decoder allocates for)."""
    ok, data = cv2.imencode(".jpg", np.full((16, 16, 3), 128, np.uint8))
    assert ok
    raw = bytearray(data.tobytes())
    sof = raw.index(b"\xff\xc0")
    raw[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    path.write_bytes(bytes(raw))
    return path


def test_the_header_gives_the_size_without_decoding(tmp_path: Path) -> None:
    assert image_header(huge_png(tmp_path / "big.png")) == ("png", 32000, 32000)
    assert image_header(huge_jpeg(tmp_path / "big.jpg")) == ("jpeg", 20000, 20000)
    img = cv2.imread(str(PHOTO))
    assert image_header(PHOTO) == ("jpeg", img.shape[1], img.shape[0])
    for suffix in (".png", ".bmp", ".webp"):
        _ok, data = cv2.imencode(suffix, np.zeros((37, 53, 3), np.uint8))
        (tmp_path / f"small{suffix}").write_bytes(data.tobytes())
        assert image_header(tmp_path / f"small{suffix}")[1:] == (53, 37), suffix


def test_a_huge_png_is_refused_by_its_header(tmp_path: Path) -> None:
    with pytest.raises(ImageRefused, match=r"32000×32000"):
        read_image(huge_png(tmp_path / "big.png"))


def test_a_huge_jpeg_is_decoded_smaller_not_whole(tmp_path: Path) -> None:
    image = read_image(huge_jpeg(tmp_path / "big.jpg"))
    assert image.pixels.shape[0] * image.pixels.shape[1] <= 20000 * 20000 // 64
    assert any("decoded at 1/8" in note for note in image.notes)


@pytest.mark.parametrize("make", [huge_png, huge_jpeg])
def test_dice_read_of_a_huge_image_stays_in_bounded_memory(tmp_path: Path, make: object) -> None:
    path = make(tmp_path / ("big.png" if make is huge_png else "big.jpg"))  # type: ignore[operator]
    proc, peak = peak_mb("dice", "read", str(path), home=tmp_path)
    no_traceback(proc)
    assert str(path) in proc.stderr or str(path) in proc.stdout
    assert peak < 600, peak  # before: 2.4 GB (JPEG) and 6 GB (PNG)


def _cut(tmp_path: Path, suffix: str) -> tuple[Path, np.ndarray]:
    whole = cv2.imread(str(PHOTO))
    _ok, data = cv2.imencode(suffix, whole)
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    return path, whole


def test_a_truncated_jpeg_is_read_but_named_and_flagged(tmp_path: Path) -> None:
    path, whole = _cut(tmp_path, ".jpg")
    image = read_image(path)
    assert image.truncated and image.pixels.shape == whole.shape  # half a picture, the rest grey: said so
    proc = companion("dice", "read", "--json", str(path), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 1
    assert f"{path}: truncated" in proc.stderr
    (line,) = proc.stdout.splitlines()
    assert json.loads(line)["warning"].startswith("truncated")


def test_a_truncated_png_is_named_as_truncated(tmp_path: Path) -> None:
    path, _whole = _cut(tmp_path, ".png")
    with pytest.raises(ImageRefused, match="truncated"):
        read_image(path)
    proc = companion("dice", "read", str(path), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 1 and str(path) in proc.stderr and "truncated" in proc.stderr


def test_a_whole_photo_reads_without_a_note() -> None:
    image = read_image(PHOTO)
    assert not image.truncated and image.notes == []
    assert load_image(PHOTO).shape == image.pixels.shape


def _labelled_set(tmp_path: Path, label: bytes | None = None, *, folder: bool = False) -> Path:
    root = tmp_path / "set"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "images" / PHOTO.name).write_bytes(PHOTO.read_bytes())
    target = root / "labels" / (PHOTO.stem + ".txt")
    if folder:
        target.mkdir()
    elif label is not None:
        target.write_bytes(label)
    return target


@pytest.mark.parametrize(
    ("label", "folder", "words"),
    [
        (None, True, "is a folder"),
        (b"2 0.5 0.5 0.1 0.1\n\xff\xfe 0.2\n", False, "not UTF-8"),
        (b"2 nan 0.5 0.1 0.1\n", False, ":1: "),
        (b"2 0.5 0.5 inf 0.1\n", False, ":1: "),
        (b"2 0.5 0.5 0.1 0.1\n3 0.5 0.5 -0.1 0.1\n", False, ":2: "),
        (b"2 0.5 1.7 0.1 0.1\n", False, ":1: "),
    ],
)
def test_dice_eval_refuses_a_broken_label_file_naming_it(
    tmp_path: Path, label: bytes | None, folder: bool, words: str
) -> None:
    target = _labelled_set(tmp_path, label, folder=folder)
    proc = companion("dice", "eval", str(tmp_path / "set"), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and str(target) in proc.stderr and words in proc.stderr, proc.stderr


def test_dice_eval_of_a_100_mb_label_file_is_refused_with_bounded_memory(tmp_path: Path) -> None:
    target = _labelled_set(tmp_path)
    with open(target, "w") as out:
        line = "2 0.5 0.5 0.1 0.1\n"
        for _ in range(100 * 1024 * 1024 // len(line)):
            out.write(line)
    proc, peak = peak_mb("dice", "eval", str(tmp_path / "set"), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and str(target) in proc.stderr and "MB" in proc.stderr
    assert peak < 600, peak  # before: 2.29 GB


def test_a_big_phone_photo_is_read_smaller_for_the_dice_with_boxes_in_its_own_pixels(tmp_path: Path) -> None:
    """Issue #20 (memory): the dice reader needs no 12 MP: a big JPEG is decoded at 1/2 or less without a note,
    and ``dice read`` still reports boxes in the picture's own pixels."""
    from companion.vision.dataset import READ_PIXELS

    photo = cv2.imread(str(PHOTO))
    big = cv2.resize(photo, (photo.shape[1] * 5, photo.shape[0] * 5), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "phone.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    image = read_image(path, READ_PIXELS)
    assert image.factor >= 2 and image.notes == [] and image.size == (big.shape[1], big.shape[0])
    assert image.pixels.shape[0] * image.pixels.shape[1] <= READ_PIXELS
    assert read_image(path).factor == 1  # without a wish, whole (it is under the decoding limit)
    whole = companion("dice", "read", "--json", str(PHOTO), home=tmp_path)
    proc = companion("dice", "read", "--json", str(path), home=tmp_path)
    no_traceback(proc)
    small = json.loads(whole.stdout)["dice"]
    large = json.loads(proc.stdout)["dice"]
    assert proc.returncode == 0 and "decoded" not in proc.stderr
    assert len(large) >= len(small) - 1 and len(large) >= 5
    # the same dice, five times as far from the corner
    assert max(d["box"][2] for d in large) == pytest.approx(5 * max(d["box"][2] for d in small), rel=0.1)

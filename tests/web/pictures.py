"""Picture files for the map picture tests, made with Pillow (and one PNG by hand)."""

import io
import struct
import zlib

from PIL import Image, ImageCms
from PIL.PngImagePlugin import PngInfo

#: A magenta no terrain colour comes near: where it shows, the picture shows.
MAGENTA = (220, 20, 200)
GREEN = (20, 200, 60)
#: What the phone wrote into the JPEG: none of it may be kept.
CAMERA = "SneakyCam 3000"
SECRET_PLACE = "GPS 51.5N 0.12W"


def quarters(width: int, height: int) -> Image.Image:
    """Magenta with a green top-left quarter: which way up the picture lies shows."""
    image = Image.new("RGB", (width, height), MAGENTA)
    image.paste(GREEN, (0, 0, width // 2, height // 2))
    return image


def png(width: int = 48, height: int = 36, *, text: str | None = None) -> bytes:
    """A real PNG, with a text chunk when `text` is given."""
    info = PngInfo()
    if text is not None:
        info.add_text("Comment", text)
    out = io.BytesIO()
    quarters(width, height).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def webp(width: int = 40, height: int = 30) -> bytes:
    """A WebP with an EXIF chunk naming the camera."""
    exif = Image.Exif()
    exif[0x010F] = CAMERA  # Make
    out = io.BytesIO()
    quarters(width, height).save(out, "WEBP", quality=90, exif=exif)
    return out.getvalue()


def jpeg_with_exif(width: int = 64, height: int = 32, *, orientation: int = 1) -> bytes:
    """A JPEG as a phone writes it: EXIF (camera, a place, orientation) and an ICC profile."""
    exif = Image.Exif()
    exif[0x010F] = CAMERA  # Make
    exif[0x0110] = CAMERA  # Model
    exif[0x010E] = SECRET_PLACE  # ImageDescription
    exif[0x0112] = orientation  # Orientation
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    out = io.BytesIO()
    quarters(width, height).save(out, "JPEG", quality=95, exif=exif, icc_profile=icc)
    return out.getvalue()


def noise_png(side: int) -> bytes:
    """A PNG of random pixels: it compresses to nothing, so it weighs ~3 bytes a pixel."""
    import os

    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, "PNG")
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb_png(side: int = 40_000) -> bytes:
    """A decompression bomb: a real 1-bit PNG of side x side black pixels (1.6 billion for
    the default), whose zeros deflate to a few hundred kilobytes."""
    row = b"\0" * (1 + (side + 7) // 8)  # filter byte, then the row's bits
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row * 1000) for _ in range(side // 1000))
    body += packer.compress(row * (side % 1000)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", body)
        + _chunk(b"IEND", b"")
    )


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


#: The painted table's colours: grass, with a lake in its north-west quarter.
GRASS = (112, 168, 84)
LAKE = (36, 84, 196)


def painted_table(width_in: int = 36, height_in: int = 36, *, px_per_inch: int = 10) -> bytes:
    """A scan of a painted table, as a GM would upload it (PNG, `px_per_inch`): grass, a
    lake filling the north-west quarter, a track across. Its colours tell where it shows
    and which way up it lies (the lake north-west, not south-west)."""
    from PIL import ImageDraw

    w, h = width_in * px_per_inch, height_in * px_per_inch
    image = Image.new("RGB", (w, h), GRASS)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w // 2 - 1, h // 2 - 1), fill=LAKE)  # rows grow south
    track = (190, 160, 110)
    draw.line((w // 2, h - 1, w - 1, h // 3), fill=track, width=px_per_inch)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()

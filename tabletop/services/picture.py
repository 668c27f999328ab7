"""A map's picture as the server keeps it: decoded, then written anew from its pixels alone.

Whatever arrives is untrusted: its name and declared type mean nothing, and a picture file
may carry more than pixels (EXIF with a phone's GPS position, an ICC profile, XMP, text
chunks, a thumbnail, trailing data). Only Pillow's PNG, JPEG and WebP decoders are tried;
the size in bytes and in pixels is checked before any pixel is decoded (a decompression
bomb is a small file that claims a huge picture); the pixels are copied into a new image
that has no metadata at all and saved in the same format. A photo taken sideways is turned
upright first (its EXIF orientation), since the orientation is about to be dropped.
"""

import hashlib
import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from tabletop.services.errors import ServiceError

#: The most a picture may weigh, as uploaded and as stored (docs/deploy/nginx.conf lets
#: a little more through on the picture's own address, for the form around it).
MAX_BYTES = 5 * 1024 * 1024
#: The most pixels on a side, and in all: a 48" table at 100 pixels an inch is 4800 wide;
#: 16 megapixels decode into at most 64 MB (RGBA) on the server and in a browser.
MAX_SIDE = 6000
MAX_PIXELS = 16_000_000
#: The formats taken, by Pillow's name, and the type each is served as.
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
FIELD = "picture"
NOT_A_PICTURE = "That file is not a PNG, JPEG or WebP picture (or it is damaged)."


@dataclass(frozen=True)
class Picture:
    data: bytes
    content_type: str
    width: int
    height: int

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def _check_pixels(width: int, height: int) -> None:
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        raise ServiceError(
            f"The picture is {width} x {height} pixels; a map's picture has at most "
            f"{MAX_SIDE} pixels a side and {MAX_PIXELS // 1_000_000} million in all. "
            "Scale it down first.",
            field=FIELD,
        )


def _opened(raw: bytes) -> Image.Image:
    """The picture decoded, its size checked first; raises in the player's words."""
    try:
        with warnings.catch_warnings():
            # Pillow warns (and beyond twice its limit refuses) on a huge claimed size;
            # ours is smaller still, but a warning must not pass silently either way.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(raw), formats=list(CONTENT_TYPES))
            _check_pixels(*image.size)
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ServiceError(
            f"The picture claims more pixels than a map's picture may have "
            f"({MAX_SIDE} a side, {MAX_PIXELS // 1_000_000} million in all).",
            field=FIELD,
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise ServiceError(NOT_A_PICTURE, field=FIELD) from None
    return image


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in {"RGBA", "LA", "PA", "RGBa", "La"} or "transparency" in image.info


def clean_picture(raw: bytes) -> Picture:
    """The picture re-encoded from its pixels, or a ServiceError at the `picture` field."""
    if not raw:
        raise ServiceError("Choose a picture file.", field=FIELD)
    if len(raw) > MAX_BYTES:
        raise ServiceError(
            f"A map's picture weighs at most {_megabytes(MAX_BYTES)}; this file is larger. "
            "Save it as JPEG or WebP, or scale it down.",
            field=FIELD,
        )
    image = _opened(raw)
    kind = str(image.format)
    upright = ImageOps.exif_transpose(image)
    mode = "RGBA" if kind != "JPEG" and _has_alpha(upright) else "RGB"
    pixels = upright.convert(mode)
    # A new image from the raw pixels: nothing of the file (its `info`: EXIF, ICC, XMP,
    # text chunks, transparency keys) comes along.
    bare = Image.frombytes(mode, pixels.size, pixels.tobytes())
    out = io.BytesIO()
    if kind == "PNG":
        bare.save(out, "PNG")
    else:
        bare.save(out, kind, quality=90)
    data = out.getvalue()
    if len(data) > MAX_BYTES:
        raise ServiceError(
            f"Stored, the picture would take {_megabytes(len(data))}; at most "
            f"{_megabytes(MAX_BYTES)}. Save it as JPEG or WebP, or scale it down.",
            field=FIELD,
        )
    return Picture(data, CONTENT_TYPES[kind], bare.width, bare.height)

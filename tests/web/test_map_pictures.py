"""A map's picture (issue 23): uploaded by the GM on the map's page, re-encoded from its
pixels alone (tabletop/services/picture.py), served to the campaign's members only, and
kept by each battle as it was when the battle was set up."""

import base64
import io
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tabletop.models import Battle, CampaignLogEntry, Map, MapImage
from tabletop.services.battle_setup import Table
from tabletop.services.battles import battle_create
from tabletop.services.errors import PermissionDenied, ServiceError
from tabletop.services.maps import map_delete, map_picture_remove, map_picture_set, map_update
from tabletop.services.picture import MAX_BYTES, MAX_PIXELS, MAX_SIDE
from tests.web import pictures
from tests.web.factories import make_battle_sync
from tests.web.world import PASSWORD, World

SVG = "{http://www.w3.org/2000/svg}"


def rows() -> dict[str, list[dict[str, Any]]]:
    """Every row an upload could touch (pictures without their bytes: compared by digest)."""
    return {
        "maps": list(Map.objects.order_by("pk").values()),
        "pictures": list(MapImage.objects.order_by("pk").values("pk", "digest", "campaign")),
        "log": list(CampaignLogEntry.objects.order_by("pk").values("pk")),
    }


def signed_in(who: str) -> Client:
    client = Client()
    assert client.login(username=who, password=PASSWORD)
    return client


def upload(
    client: Client,
    battle_map: Map,
    data: bytes | None,
    *,
    name: str = "map.png",
    content_type: str = "image/png",
    **place: str,
):
    """Posts the map page's picture form as a browser does (multipart)."""
    fields: dict[str, Any] = {f"picture-{key}": value for key, value in place.items()}
    if data is not None:
        fields["picture-file"] = SimpleUploadedFile(name, data, content_type=content_type)
    url = reverse("map_picture", args=[battle_map.campaign_id, battle_map.pk])
    return client.post(url, fields)


def served(client: Client, battle_map: Map):
    """The map's picture as the browser loads it from the address the page names."""
    battle_map.refresh_from_db()
    picture = MapImage.objects.get(pk=battle_map.image_id)
    return client.get(reverse("map_picture_file", args=[picture.pk, picture.digest]))


def field_errors(response, field: str) -> str:
    """The picture form's errors at `field`, as the page shows them."""
    return " ".join(response.context["picture_form"].errors.get(field, []))


def refused_upload(world: World, data: bytes, words: str, **kwargs: Any) -> None:
    """The GM's upload is answered 400 with `words` at the picture field; nothing changes."""
    before = rows()
    response = upload(signed_in("gm"), world.home.map, data, **kwargs)
    assert response.status_code == 400
    assert words.lower() in field_errors(response, "file").lower()
    assert rows() == before


# -- what is kept: pixels only -----------------------------------------------------------------


def test_a_png_is_kept_as_its_pixels_alone_and_served_to_the_campaigns_members(
    world: World,
) -> None:
    original = pictures.png(48, 36, text="made with a secret tool")
    response = upload(signed_in("gm"), world.home.map, original)
    assert response.status_code == 302

    battle_map = Map.objects.get(pk=world.home.map.pk)
    stored = MapImage.objects.get(pk=battle_map.image_id)
    kept = pictures.opened(bytes(stored.data))
    assert (kept.format, kept.size, stored.content_type) == ("PNG", (48, 36), "image/png")
    assert kept.info == {} and b"secret tool" not in bytes(stored.data)
    assert kept.convert("RGB").tobytes() == pictures.quarters(48, 36).tobytes()
    assert battle_map.image_place == {"x": 0.0, "y": 0.0, "width": 36.0, "height": 36.0}

    for member in ("gm", "owner", "spectator"):
        response = served(signed_in(member), battle_map)
        assert response.status_code == 200
        assert response.content == bytes(stored.data)
        assert response["Content-Type"] == "image/png"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert "immutable" in response["Cache-Control"]
        assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert served(signed_in("outsider"), battle_map).status_code == 404  # not of this campaign
    assert served(Client(), battle_map).status_code == 302  # to the login page


def test_a_jpegs_exif_and_icc_profile_are_stripped_in_what_is_stored_and_served(
    world: World,
) -> None:
    original = pictures.jpeg_with_exif()
    assert pictures.CAMERA.encode() in original and b"ICC_PROFILE" in original
    assert upload(signed_in("gm"), world.home.map, original, name="photo.jpg").status_code == 302

    response = served(signed_in("owner"), world.home.map)
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    for data in (bytes(MapImage.objects.get().data), response.content):
        kept = pictures.opened(data)
        assert kept.format == "JPEG" and kept.size == (64, 32)
        assert "exif" not in kept.info and "icc_profile" not in kept.info
        assert kept.getexif() == {}
        for trace in (b"Exif", b"ICC_PROFILE", pictures.CAMERA.encode()):
            assert trace not in data
        assert pictures.SECRET_PLACE.encode() not in data
        # The pixels are the photo's: the green quarter is still top-left.
        assert kept.getpixel((8, 4))[1] > 150 and kept.getpixel((56, 28))[0] > 150


def test_a_photo_taken_sideways_is_kept_upright_once_its_orientation_is_dropped(
    world: World,
) -> None:
    map_picture_set(
        actor=world.users["gm"],
        battle_map=world.home.map,
        picture=pictures.jpeg_with_exif(64, 32, orientation=6),  # rotate 90 clockwise to view
    )
    kept = pictures.opened(bytes(MapImage.objects.get().data))
    assert kept.size == (32, 64) and kept.getexif() == {}
    assert kept.getpixel((28, 4))[1] > 150  # the green quarter, turned to the top-right


def test_a_webp_is_kept_as_webp_without_its_exif(world: World) -> None:
    assert pictures.CAMERA.encode() in pictures.webp()
    response = upload(
        signed_in("gm"), world.home.map, pictures.webp(), name="map.webp", content_type="image/webp"
    )
    assert response.status_code == 302
    stored = MapImage.objects.get()
    assert stored.content_type == "image/webp"
    assert pictures.opened(bytes(stored.data)).size == (40, 30)
    for trace in (b"EXIF", b"ICCP", pictures.CAMERA.encode()):
        assert trace not in bytes(stored.data)


# -- what is refused ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"<html><script>alert(1)</script></html>",
        b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",  # a real picture, of a format not taken
        pictures.png()[:80],  # a PNG cut short
        b"",
    ],
    ids=["html", "gif", "truncated-png", "empty"],
)
def test_a_file_that_claims_to_be_a_picture_and_is_not_is_refused(
    world: World, data: bytes
) -> None:
    words = "the submitted file is empty" if not data else "is not a PNG, JPEG or WebP picture"
    refused_upload(world, data, words, name="map.png", content_type="image/png")


def test_a_picture_over_the_byte_limit_is_refused(world: World) -> None:
    heavy = pictures.noise_png(1400)
    assert len(heavy) > MAX_BYTES
    refused_upload(world, heavy, "weighs at most 5.0 MB")


def test_a_decompression_bomb_is_refused_before_its_pixels_are_decoded(world: World) -> None:
    bomb = pictures.bomb_png(40_000)
    assert len(bomb) < MAX_BYTES // 10  # small to send, 1.6 billion pixels to decode
    refused_upload(world, bomb, "claims more pixels")


def test_a_picture_beyond_the_pixel_limits_is_refused_in_the_players_words(
    world: World,
) -> None:
    out = io.BytesIO()
    pictures.quarters(MAX_SIDE + 1, 10).save(out, "PNG")
    refused_upload(world, out.getvalue(), f"{MAX_SIDE + 1} x 10 pixels")
    out = io.BytesIO()
    side = int(MAX_PIXELS**0.5) + 1
    pictures.quarters(side, side).save(out, "PNG")
    refused_upload(world, out.getvalue(), f"{MAX_PIXELS // 1_000_000} million in all")


@pytest.mark.parametrize("who", ["owner", "spectator"])
def test_a_member_who_is_not_the_gm_cannot_set_or_remove_the_picture(
    world: World, who: str
) -> None:
    map_picture_set(actor=world.users["gm"], battle_map=world.home.map, picture=pictures.png())
    before = rows()
    assert upload(signed_in(who), world.home.map, pictures.png(20, 20)).status_code == 403
    remove = reverse("map_picture_delete", args=[world.home.campaign.pk, world.home.map.pk])
    assert signed_in(who).post(remove).status_code == 403
    with pytest.raises(PermissionDenied):
        map_picture_set(actor=world.users[who], battle_map=world.home.map, picture=b"x")
    assert rows() == before


def test_someone_outside_the_campaign_finds_no_map_to_set_a_picture_on(world: World) -> None:
    before = rows()
    assert upload(signed_in("outsider"), world.home.map, pictures.png()).status_code == 404
    assert rows() == before


# -- where it lies --------------------------------------------------------------------------


def test_the_picture_lies_where_the_gm_places_it_in_inches_and_moves_without_a_new_file(
    world: World,
) -> None:
    gm = signed_in("gm")
    place = {"x": "6", "y": "4", "width": "24", "height": "18"}
    nothing_to_move = upload(gm, world.home.map, None, **place)
    assert nothing_to_move.status_code == 400
    assert field_errors(nothing_to_move, "file") == "Choose a picture file."
    assert upload(gm, world.home.map, pictures.png(), **place).status_code == 302
    picture = Map.objects.get(pk=world.home.map.pk).image_id
    moved = {"x": "0", "y": "0", "width": "12", "height": "9"}
    assert upload(gm, world.home.map, None, **moved).status_code == 302
    battle_map = Map.objects.get(pk=world.home.map.pk)
    assert battle_map.image_id == picture
    assert battle_map.image_place == {"x": 0.0, "y": 0.0, "width": 12.0, "height": 9.0}


@pytest.mark.parametrize(
    ("place", "field", "words"),
    [
        ({"x": "30", "y": "0", "width": "12", "height": "6"}, "width", "must lie on the table"),
        ({"x": "0", "y": "0", "width": "0.1", "height": "6"}, "width", "at least 0.5"),
        ({"x": "nan", "y": "0", "width": "6", "height": "6"}, "x", "number"),
        ({"x": "1", "y": "", "width": "6", "height": "6"}, "y", "or none of them"),
    ],
)
def test_a_place_off_the_table_or_not_a_number_is_refused_at_its_field(
    world: World, place: dict, field: str, words: str
) -> None:
    before = rows()
    response = upload(signed_in("gm"), world.home.map, pictures.png(), **place)
    assert response.status_code == 400
    assert words in field_errors(response, field)
    assert rows() == before


def test_a_resized_map_keeps_its_picture_over_the_whole_table(world: World) -> None:
    gm = world.users["gm"]
    battle_map = map_picture_set(actor=gm, battle_map=world.home.spare_map, picture=pictures.png())
    map_update(actor=gm, battle_map=battle_map, name="Spare", width=30, height=20, terrain=[])
    battle_map.refresh_from_db()
    assert battle_map.image_place == {"x": 0.0, "y": 0.0, "width": 30.0, "height": 20.0}


# -- battles keep the picture they were set up with -------------------------------------------


def test_a_battle_keeps_its_picture_when_the_map_gets_a_new_one_or_none(world: World) -> None:
    gm, home = world.users["gm"], world.home
    pictured = map_picture_set(actor=gm, battle_map=home.map, picture=pictures.png())
    first = pictured.image_id
    battle = battle_create(
        campaign=home.campaign,
        battle_map=pictured,
        name="Second",
        sides=[(home.roster, "P1"), (home.other_roster, "P2")],
        deployment_zones={"P1": [[0, 0], [36, 0], [36, 6], [0, 6]]}
        | {"P2": [[0, 30], [36, 30], [36, 36], [0, 36]]},
    )
    assert battle.backdrop_id == first
    assert battle.backdrop_place == {"x": 0.0, "y": 0.0, "width": 36.0, "height": 36.0}

    second = map_picture_set(actor=gm, battle_map=home.map, picture=pictures.webp()).image_id
    assert second != first and MapImage.objects.filter(pk=first).exists()
    map_picture_remove(actor=gm, battle_map=home.map)
    assert not MapImage.objects.filter(pk=second).exists()  # nothing else showed it
    battle.refresh_from_db()
    assert battle.backdrop_id == first

    client = signed_in("spectator")
    board = client.get(reverse("board", args=[battle.pk]))
    picture = MapImage.objects.get(pk=first)
    assert board.context["config"]["backdrop"] == {
        "url": reverse("map_picture_file", args=[first, picture.digest]),
        "x": 0.0,
        "y": 0.0,
        "width": 36.0,
        "height": 36.0,
    }


def test_a_map_deleted_takes_its_picture_with_it(world: World) -> None:
    gm = world.users["gm"]
    spare = map_picture_set(actor=gm, battle_map=world.home.spare_map, picture=pictures.png())
    map_delete(actor=gm, battle_map=spare)
    assert not MapImage.objects.exists()


def test_removing_a_picture_a_map_does_not_have_is_refused(world: World) -> None:
    with pytest.raises(ServiceError, match="no picture"):
        map_picture_remove(actor=world.users["gm"], battle_map=world.home.map)


# -- the report -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_report_draws_the_picture_under_the_terrain_and_its_file_carries_it() -> None:
    terrain = [{"id": "W1", "type": "hindering", "polygon": [[6, 14], [12, 14], [12, 20], [6, 20]]}]
    pictured = Table("Pictured", 36, 36, terrain, picture=pictures.png())
    battle, users = make_battle_sync("r", pictured)
    picture = MapImage.objects.get(pk=Battle.objects.get(pk=battle.pk).backdrop_id)
    url = reverse("map_picture_file", args=[picture.pk, picture.digest])
    client = Client()
    client.force_login(users["spectator"])

    page = client.get(reverse("battle_report", args=[battle.pk])).content.decode()
    svg = ET.fromstring(re.search(r"<svg .*?</svg>", page, re.S).group(0))
    children = [child.get("class") for child in svg]
    image = svg.find(f"{SVG}image")
    assert image.get("href") == url
    assert children.index("backdrop") < children.index("terrain")  # under the terrain
    assert (image.get("x"), image.get("y"), image.get("width"), image.get("height")) == (
        "0",
        "0",
        "36",
        "36",
    )

    download = client.get(reverse("battle_report_svg", args=[battle.pk]))
    href = ET.fromstring(download.content).find(f"{SVG}image").get("href")
    prefix = "data:image/png;base64,"
    assert href.startswith(prefix)
    assert base64.b64decode(href[len(prefix) :]) == bytes(picture.data)

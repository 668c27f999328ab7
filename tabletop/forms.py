"""Forms: parse and type-check what a page posts; the services decide what is allowed."""

import json
from typing import Any

from django import forms

from tabletop.models import Role
from tabletop.models.roster import UnitStatus
from tabletop.option_fields import TableOptions
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.inputs import MAX_JSON_BYTES, MAX_TABLE_INCHES, parse_json
from tabletop.services.maps import (
    MAX_CORNERS,
    MAX_FEATURE_CORNERS,
    MAX_FEATURES,
    check_map_limits,
)
from tabletop.services.picture import MAX_BYTES as MAX_PICTURE_BYTES
from tabletop.services.picture import MAX_SIDE as MAX_PICTURE_SIDE
from tabletop.storable import MESSAGE as UNSTORABLE_MESSAGE
from tabletop.storable import unstorable_at


def storable_text(value: Any) -> None:
    """Refuses text the database cannot store (NUL, a lone surrogate: tabletop/storable.py)."""
    where = unstorable_at(value)
    if where is not None:
        raise forms.ValidationError(
            f"{where}: {UNSTORABLE_MESSAGE}" if where else UNSTORABLE_MESSAGE
        )


class JSONTextField(forms.CharField):
    """A textarea of JSON; NaN, Infinity and oversized text are refused at the field."""

    widget = forms.Textarea(attrs={"rows": 6, "spellcheck": "false"})

    def __init__(self, *, empty: Any = None, **kwargs: Any):
        self.empty = empty
        kwargs.setdefault("strip", True)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        if not text:
            return self.empty
        try:
            parsed = parse_json(text, field="")
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        # A JSON escape (\u0000, \ud800) gets past the text's own checks.
        storable_text(parsed)
        return parsed


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field `name`, a choice field whose choices the page sets."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{name} is not a choice field")
    return field


def add_service_error(form: forms.Form, error: ServiceError, aliases: dict | None = None) -> None:
    """Puts each message of a refused write at the form field it is about."""
    aliases = aliases or {}
    for key, messages in error.by_field().items():
        field = aliases.get(key, key)
        for message in messages:
            if field in form.fields:
                form.add_error(field, message)
            elif field:
                form.add_error(getattr(form, "error_field", None), f"{key}: {message}")
            else:
                form.add_error(None, message)


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120)
    system = forms.ChoiceField(
        choices=(),
        help_text="Its table options (the book's defaults to begin with) are set on the "
        "campaign's settings page.",
    )
    points_limit = forms.IntegerField(min_value=1, max_value=100_000, initial=300)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "system").choices = list(game_systems.system_names().items())


class CampaignSettingsForm(forms.Form):
    """A campaign's name, points limit and its system's table options, one field each
    (the system is fixed for good: a campaign's rosters and maps are of one system)."""

    name = forms.CharField(max_length=120)
    points_limit = forms.IntegerField(min_value=1, max_value=100_000)

    def __init__(self, *args: Any, system: str, options: dict, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.options = TableOptions(self, game_systems.table_option_schema(system), options)

    def refuse(self, error: ServiceError) -> None:
        """A refusal of the service, at the option it names where it names one."""
        if error.field == "table_options" and self.options.refuse(error.message):
            return
        add_service_error(self, error)


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=[(Role.PLAYER, "Player"), (Role.SPECTATOR, "Spectator")])
    valid_days = forms.IntegerField(min_value=1, max_value=90, initial=7, label="Valid for (days)")
    single_use = forms.BooleanField(required=False, initial=True, label="Single use")


class MembershipRoleForm(forms.Form):
    role = forms.ChoiceField(choices=[(Role.PLAYER, "Player"), (Role.SPECTATOR, "Spectator")])


class RosterForm(forms.Form):
    name = forms.CharField(max_length=120)
    faction = forms.CharField(max_length=80, required=False)


def json_file(upload: Any) -> Any:
    """The JSON in an uploaded file (a roster or map file); refused at the field if not."""
    if upload.size > MAX_JSON_BYTES:
        limit = MAX_JSON_BYTES // 1000
        raise forms.ValidationError(f"That file is too big; the limit is {limit} kB.")
    try:
        text = upload.read().decode("utf-8")
    except UnicodeDecodeError:
        raise forms.ValidationError("That file is not text (UTF-8 JSON).") from None
    try:
        return parse_json(text, field="")
    except ServiceError as error:
        raise forms.ValidationError(error.message) from None


class RosterImportForm(forms.Form):
    """A roster file: uploaded (what a player downloaded from a roster page), or pasted."""

    error_field = "data"
    file = forms.FileField(
        required=False,
        label="Roster file",
        help_text="A .json file downloaded from a roster page.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    # The form's metaclass takes declared fields off the class: the form's own `data`
    # (what was posted) stays as it is.
    data = JSONTextField(  # type: ignore[assignment]
        required=False, label="Or paste the roster JSON", help_text="The same file's text."
    )
    # Set by the page that asked "import a second roster of that name?" (the player agreed).
    second_copy = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        upload = cleaned.get("file")
        if upload:
            try:
                cleaned["data"] = json_file(upload)
            except forms.ValidationError as error:
                self.add_error("file", error)
        elif cleaned.get("data") is None and "data" not in self.errors:
            self.add_error("file", "Choose a roster file, or paste its JSON.")
        return cleaned


class CatalogueImportForm(forms.Form):
    """A catalogue file (what the catalogue page's "Download" gave another GM)."""

    file = forms.FileField(
        label="Catalogue file",
        help_text="A .json file downloaded from a campaign's catalogue page.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
        error_messages={"required": "Choose a catalogue file."},
    )

    def clean_file(self) -> Any:
        return json_file(self.cleaned_data["file"])


def _schema_field(spec: dict[str, Any], type_names: dict[str, str]) -> forms.Field:
    help_text = spec.get("description", "")
    if "for" in spec:
        only = ", ".join(type_names.get(t, t) for t in spec["for"])
        help_text = f"{help_text} (only {only})".strip()
    kind = spec.get("type")
    common = {"required": False, "help_text": help_text}
    if "enum" in spec:
        return forms.ChoiceField(choices=[("", "—")] + [(v, v) for v in spec["enum"]], **common)
    if kind == "number":
        return forms.FloatField(
            min_value=spec.get("minimum"), max_value=spec.get("maximum"), **common
        )
    if kind == "integer":
        return forms.IntegerField(
            min_value=spec.get("minimum"), max_value=spec.get("maximum"), **common
        )
    if kind == "boolean":
        return forms.BooleanField(**common)
    if kind == "array":
        return WordListField(**common)
    return forms.CharField(max_length=spec.get("maxLength"), **common)


class WordListField(forms.CharField):
    """A schema's list of words ("combat_manoeuvres, jump"), typed with commas between."""

    def prepare_value(self, value: Any) -> Any:
        return ", ".join(map(str, value)) if isinstance(value, list) else value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().to_python(value) or ""
        return [word.strip() for word in text.split(",") if word.strip()]


def _variants(spec: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """A field of several shapes (a base): each shape (its `shape` constant) and its sizes."""
    return [
        (
            variant["properties"]["shape"]["const"],
            [dim for dim in variant["properties"] if dim != "shape"],
        )
        for variant in spec["oneOf"]
    ]


class UnitForm(forms.Form):
    """A unit profile, with one input per field of the system's published unit schema."""

    name = forms.CharField(max_length=120)
    unit_type = forms.ChoiceField(
        label="Unit type", choices=(), error_messages={"required": "Choose the unit's type."}
    )
    points = forms.IntegerField(min_value=0, max_value=100_000, initial=0)

    def __init__(self, *args: Any, system: str, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # The catalogue's names, none chosen in advance: the GM or player picks the type.
        type_names = dict(game_systems.unit_type_choices(system))
        choice_field(self, "unit_type").choices = [("", "Choose a unit type…"), *type_names.items()]
        fields = game_systems.roster_fields(system)
        self.stat_fields = {k: v for k, v in fields.items() if k != "points"}
        for key, spec in self.stat_fields.items():
            if "oneOf" in spec:
                self._add_base_fields(key, spec)
            else:
                self.fields[key] = _schema_field(spec, type_names)
                self.fields[key].label = key.replace("_", " ").capitalize()
                if spec.get("required"):
                    self.fields[key].required = True

    def _add_base_fields(self, key: str, spec: dict[str, Any]) -> None:
        shapes = [shape for shape, _ in _variants(spec)]
        self.fields[f"{key}_shape"] = forms.ChoiceField(
            label="Base shape", choices=[(s, s) for s in shapes]
        )
        for shape, dims in _variants(spec):
            for dim in dims:
                if f"{key}_{dim}" not in self.fields:
                    self.fields[f"{key}_{dim}"] = forms.FloatField(
                        label=f"Base {dim} (inches, {shape})",
                        required=False,
                        min_value=0,
                        max_value=MAX_TABLE_INCHES,
                    )

    # The service reports "base.diameter"; the page shows it at the base_diameter input.
    def error_aliases(self) -> dict[str, str]:
        aliases = {}
        for key in self.fields:
            if "_" in key and key.split("_", 1)[0] in self.stat_fields:
                aliases[key.replace("_", ".", 1)] = key
        for key, spec in self.stat_fields.items():
            if "oneOf" in spec:
                aliases[key] = f"{key}_shape"
        return aliases

    def stats(self) -> dict[str, Any]:
        """The cleaned inputs as the unit's stats: empty optional inputs are left out."""
        data = self.cleaned_data
        stats: dict[str, Any] = {}
        for key, spec in self.stat_fields.items():
            if "oneOf" in spec:
                shape = data.get(f"{key}_shape")
                dims = dict(_variants(spec))[str(shape)]
                stats[key] = {"shape": shape}
                for dim in dims:
                    if data.get(f"{key}_{dim}") is not None:
                        stats[key][dim] = data[f"{key}_{dim}"]
                continue
            value = data.get(key)
            if value in (None, "", False, []):
                continue
            stats[key] = value
        return stats

    @classmethod
    def initial_from(cls, unit: Any) -> dict[str, Any]:
        initial = {"name": unit.name, "unit_type": unit.unit_type, "points": unit.points}
        for key, value in unit.stats.items():
            if isinstance(value, dict):
                initial.update({f"{key}_{k}": v for k, v in value.items()})
            else:
                initial[key] = value
        return initial


def _whole_numbers(value: Any) -> Any:
    """12.0 written 12, as the editor's JavaScript writes it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    return value


def compact_terrain(terrain: list) -> str:
    """The terrain as the map form shows it: one feature a line, not one number a line
    (static/js/mapeditor.js writes the same layout)."""
    if not terrain:
        return "[]"
    lines = ",\n".join(
        " " + json.dumps(_whole_numbers(feature), separators=(",", ":")) for feature in terrain
    )
    return f"[\n{lines}\n]"


class MapForm(forms.Form):
    error_field = "terrain"
    name = forms.CharField(max_length=120)
    width = forms.FloatField(
        min_value=1, max_value=MAX_TABLE_INCHES, initial=36, help_text="inches"
    )
    height = forms.FloatField(
        min_value=1, max_value=MAX_TABLE_INCHES, initial=36, help_text="inches"
    )
    terrain = JSONTextField(
        required=False,
        empty=[],
        label="Terrain (JSON)",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text='A list of features: {"id": "T1", "type": a terrain type, '
        '"polygon": [[6, 14], [12, 14], [12, 20], [6, 20]]}, plus the keys its type takes '
        "(the feature types above list them). Points are [x, y] in inches from the "
        f"bottom-left corner. At most {MAX_FEATURES} features, {MAX_FEATURE_CORNERS} corners "
        f"each and {MAX_CORNERS:,} in all.",
    )

    def clean_terrain(self) -> Any:
        """The map limits (tabletop/services/maps.py), refused here before anything else."""
        terrain = self.cleaned_data["terrain"]
        try:
            check_map_limits(terrain)
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        return terrain


class BattleForm(forms.Form):
    """A battle: its map, which roster fights as which side, and the deployment zones."""

    name = forms.CharField(max_length=120)
    map = forms.ChoiceField(choices=())
    zone_depth = forms.FloatField(
        min_value=1,
        max_value=60,
        initial=6,
        label="Deployment depth (inches)",
        help_text="Each side deploys along a table edge, this deep: the first side (P1) "
        "south, the second north, the third west, the fourth east, unless the game "
        "system sets its own zones.",
    )
    deployment_zones = JSONTextField(
        required=False,
        empty=None,
        label="Custom deployment zones (JSON, optional)",
        help_text='{"P1": [[x, y], ...], "P2": [[x, y], ...]} instead of the table edges.',
    )
    SIDES = [("", "Not in this battle"), ("P1", "P1"), ("P2", "P2"), ("P3", "P3"), ("P4", "P4")]

    def __init__(self, *args: Any, maps: Any, rosters: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "map").choices = [(m.pk, str(m)) for m in maps]
        self.rosters = list(rosters)
        for roster in self.rosters:
            self.fields[f"side_{roster.pk}"] = forms.ChoiceField(
                choices=self.SIDES, required=False, label=f"{roster.name} ({roster.owner})"
            )

    def side_fields(self) -> list[forms.BoundField]:
        return [self[f"side_{r.pk}"] for r in self.rosters]

    def sides(self) -> list[tuple[Any, str]]:
        """(roster, side) by side name: P1 acts first and takes the first zone."""
        chosen = [
            (r, self.cleaned_data[f"side_{r.pk}"])
            for r in self.rosters
            if self.cleaned_data.get(f"side_{r.pk}")
        ]
        return sorted(chosen, key=lambda pair: pair[1])


class DeploymentForm(forms.Form):
    """Where each unit stands before the battle: x, y and facing, by unit."""

    def __init__(self, *args: Any, units: list[dict], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.units = units
        for unit in units:
            uid = unit["id"]
            x, y = unit["position"][:2]
            self.fields[f"{uid}_x"] = forms.FloatField(initial=x, label=f"{unit['name']} x")
            self.fields[f"{uid}_y"] = forms.FloatField(initial=y, label=f"{unit['name']} y")
            self.fields[f"{uid}_facing"] = forms.FloatField(
                initial=unit["facing"],
                min_value=-360,
                max_value=720,
                label=f"{unit['name']} facing",
            )

    def rows(self) -> list[tuple[dict, list[forms.BoundField]]]:
        return [
            (u, [self[f"{u['id']}_x"], self[f"{u['id']}_y"], self[f"{u['id']}_facing"]])
            for u in self.units
        ]

    def placements(self) -> dict[str, dict[str, Any]]:
        data = self.cleaned_data
        return {
            u["id"]: {
                "position": [data[f"{u['id']}_x"], data[f"{u['id']}_y"]],
                "facing": data[f"{u['id']}_facing"],
            }
            for u in self.units
        }

    def error_aliases(self) -> dict[str, str]:
        return {u["id"]: f"{u['id']}_x" for u in self.units}


class ResultForm(forms.Form):
    error_field = "outcome"
    winner_side = forms.ChoiceField(choices=(), required=False, label="Winner")
    outcome = forms.CharField(max_length=200, help_text="e.g. 'P1 holds the ridge'")

    def __init__(self, *args: Any, sides: list[str], units: list[dict], **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "winner_side").choices = [("", "Draw")] + [
            (s, f"Side {s}") for s in sides
        ]
        self.units = units
        for unit in units:
            self.fields[f"fate_{unit['profile']}"] = forms.ChoiceField(
                choices=UnitStatus.choices,
                initial=UnitStatus.READY,
                label=f"{unit['name']} ({unit['side']})",
            )

    def fate_fields(self) -> list[forms.BoundField]:
        return [self[f"fate_{u['profile']}"] for u in self.units]

    def unit_fates(self) -> dict[str, str]:
        return {str(u["profile"]): self.cleaned_data[f"fate_{u['profile']}"] for u in self.units}

    @staticmethod
    def initial_from(result: Any) -> dict[str, Any]:
        """A recorded result as the form's initial values (to correct it)."""
        initial = {"winner_side": result.winner_side, "outcome": result.outcome}
        initial.update({f"fate_{k}": v for k, v in result.unit_fates.items()})
        return initial


class MapPictureForm(forms.Form):
    """A map's background picture and its place on the table. A plain FileField:
    the service decodes and re-encodes it (services/picture.py), nothing trusts the upload."""

    error_field = "file"
    file = forms.FileField(
        required=False,
        label="Picture",
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}),
        help_text=f"PNG, JPEG or WebP; at most {MAX_PICTURE_BYTES // (1024 * 1024)} MB and "
        f"{MAX_PICTURE_SIDE} pixels a side. Only its pixels are kept (no EXIF or other "
        "metadata). Leave empty to move the picture the map has.",
    )
    x = forms.FloatField(required=False, min_value=0, label="Left edge", help_text="inches")
    y = forms.FloatField(required=False, min_value=0, label="Bottom edge", help_text="inches")
    width = forms.FloatField(required=False, min_value=0, help_text="inches")
    height = forms.FloatField(
        required=False,
        min_value=0,
        help_text="inches; leave all four empty to cover the whole table",
    )

    def place(self) -> dict[str, float | None]:
        return {key: self.cleaned_data[key] for key in ("x", "y", "width", "height")}

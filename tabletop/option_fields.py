"""A game system's table options as form fields, built from the schema the engine publishes
(`game_systems.table_option_schema`): a number, a yes/no, a choice, a grid of choices (a
movement matrix) or a list of number pairs (turn bands). The GM types no JSON; the form
types what it can and the service (campaigns._clean_table_options) judges the rest.

Only what differs from the book's default is kept, so a campaign's options stay as short
as the GM's real choices and a later change of the engine's defaults still reaches it.
"""

from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

PREFIX = "option"


def words(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def _above(minimum: float) -> Any:
    def check(value: float | None) -> None:
        if value is not None and value <= minimum:
            raise ValidationError(f"Must be more than {minimum:g}.")

    return check


def _number_field(spec: dict[str, Any], *, integer: bool, label: str, help_text: str = "") -> Any:
    cls = forms.IntegerField if integer else forms.FloatField
    validators = [_above(spec["exclusiveMinimum"])] if "exclusiveMinimum" in spec else []
    return cls(
        required=False,
        label=label,
        help_text=help_text,
        min_value=spec.get("minimum"),
        max_value=spec.get("maximum"),
        validators=validators,
        widget=forms.NumberInput(attrs={"step": "1" if integer else "any"}),
    )


def _named(spec: dict[str, Any], key: str) -> str:
    """A row, column or choice in the system's words where it gives them."""
    return spec.get("labels", {}).get(key) or words(key)


def _choices(spec: dict[str, Any], values: list[str]) -> list[tuple[str, str]]:
    return [(v, _named(spec, v)) for v in values]


@dataclass
class OptionGroup:
    """One option as the page lays it out: a single field, a grid or a list of pairs."""

    key: str
    kind: str
    label: str
    help: str
    default: str
    fields: list[Any] = field(default_factory=list)  # bound fields, for "single"
    rows: list[tuple[str, list[Any]]] = field(default_factory=list)  # grid / pairs
    columns: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _default_words(spec: dict[str, Any]) -> str:
    default = spec.get("default")
    if spec.get("type") == "boolean":
        return "yes" if default else "no"
    if "enum" in spec:
        return dict(_choices(spec, spec["enum"])).get(str(default), str(default))
    if spec.get("type") in ("number", "integer"):
        return f"{default:g}" if isinstance(default, float) else str(default)
    return ""


class TableOptions:
    """The option fields of one system, added to a form; `values()` reads them back."""

    def __init__(self, form: forms.Form, schema: dict[str, dict[str, Any]], current: dict):
        self.form = form
        self.schema = schema
        self.errors: dict[str, list[str]] = {}
        for key, spec in schema.items():
            kind = spec.get("type")
            if kind == "grid":
                self._grid(key, spec, current.get(key, {}))
            elif kind == "pairs":
                self._pairs(key, spec, current.get(key))
            else:
                self._single(key, spec, current.get(key, spec.get("default")))

    def _add(self, name: str, field_: forms.Field, initial: Any) -> None:
        self.form.fields[name] = field_
        self.form.initial.setdefault(name, initial)

    def _single(self, key: str, spec: dict[str, Any], value: Any) -> None:
        label, help_text = spec.get("label") or words(key), spec.get("description", "")
        kind = spec.get("type")
        name = f"{PREFIX}-{key}"
        if kind == "boolean":
            self._add(
                name,
                forms.BooleanField(required=False, label=label, help_text=help_text),
                bool(value),
            )
        elif "enum" in spec:
            field_ = forms.ChoiceField(
                choices=_choices(spec, spec["enum"]),
                label=label,
                help_text=help_text,
                required=False,
            )
            self._add(name, field_, value)
        elif kind in ("number", "integer"):
            field_ = _number_field(
                spec, integer=kind == "integer", label=label, help_text=help_text
            )
            self._add(name, field_, value)

    def _grid(self, key: str, spec: dict[str, Any], current: Any) -> None:
        current = current if isinstance(current, dict) else {}
        for row in spec["rows"]:
            for index, column in enumerate(spec["columns"]):
                default = spec["default"][row]
                default = default[column] if spec.get("shape") == "object" else default[index]
                given = current.get(row)
                if isinstance(given, dict):
                    value = given.get(column, default)
                elif isinstance(given, list) and index < len(given):
                    value = given[index]
                else:
                    value = default
                self._add(
                    self._cell(key, row, index),
                    forms.ChoiceField(
                        choices=_choices(spec, spec["cells"]),
                        label=f"{_named(spec, row)}, {_named(spec, column)}",
                        required=False,
                    ),
                    value,
                )

    def _pairs(self, key: str, spec: dict[str, Any], current: Any) -> None:
        rows = current if isinstance(current, list) else spec["default"]
        for index in range(spec["max_items"]):
            for part, item in enumerate(spec["items"]):
                value = rows[index][part] if index < len(rows) else None
                self._add(
                    self._cell(key, index, part),
                    _number_field(item, integer=False, label=f"{item['label']}, row {index + 1}"),
                    value,
                )

    @staticmethod
    def _cell(key: str, row: Any, column: Any) -> str:
        return f"{PREFIX}-{key}-{row}-{column}"

    # -- reading back -----------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """The options that differ from the book's defaults, as the engine reads them."""
        data = self.form.cleaned_data
        options: dict[str, Any] = {}
        for key, spec in self.schema.items():
            kind = spec.get("type")
            if kind == "grid":
                changed = self._grid_changes(key, spec, data)
                if changed:
                    options[key] = changed
            elif kind == "pairs":
                rows = [
                    [data.get(self._cell(key, i, p)) for p in range(len(spec["items"]))]
                    for i in range(spec["max_items"])
                ]
                rows = [r for r in rows if any(v is not None for v in r)]
                if rows != spec["default"]:
                    options[key] = rows
            else:
                value = data.get(f"{PREFIX}-{key}")
                if value is None or value == "":
                    continue  # an emptied number: the book's default
                if kind == "number":
                    value = float(value)
                if value != spec.get("default"):
                    options[key] = value
        return options

    def _grid_changes(self, key: str, spec: dict[str, Any], data: dict) -> dict[str, Any]:
        changed: dict[str, Any] = {}
        for row in spec["rows"]:
            default = spec["default"][row]
            if spec.get("shape") == "object":
                default = [default[column] for column in spec["columns"]]
            # A cell left out of the post is the book's.
            cells = [
                data.get(self._cell(key, row, i)) or default[i] for i in range(len(spec["columns"]))
            ]
            if spec.get("shape") == "object":
                diff = {
                    column: cell
                    for column, cell, book in zip(spec["columns"], cells, default, strict=True)
                    if cell != book
                }
                if diff:
                    changed[row] = diff
            elif cells != list(default):
                changed[row] = cells
        return changed

    # -- the page -----------------------------------------------------------------------

    def refuse(self, message: str) -> bool:
        """Puts a refusal of the service ("run_multiplier: expected ...") at its option;
        False where the message names none of them."""
        key = message.split(":", 1)[0].split(".", 1)[0].split("[", 1)[0].strip()
        if key not in self.schema:
            return False
        name = f"{PREFIX}-{key}"
        if name in self.form.fields:
            self.form.add_error(name, message.split(":", 1)[1].strip())
        else:
            self.errors.setdefault(key, []).append(message.split(":", 1)[1].strip())
        return True

    def groups(self) -> list[OptionGroup]:
        """Each option for the template: its label, help, default and its inputs."""
        out = []
        for key, spec in self.schema.items():
            kind = spec.get("type")
            group = OptionGroup(
                key=key,
                kind=kind if kind in ("grid", "pairs") else "single",
                label=spec.get("label") or words(key),
                help=spec.get("description", ""),
                default=_default_words(spec),
                errors=self.errors.get(key, []),
            )
            if kind == "grid":
                group.columns = [_named(spec, c) for c in spec["columns"]]
                group.rows = [
                    (
                        _named(spec, row),
                        [self.form[self._cell(key, row, i)] for i in range(len(spec["columns"]))],
                    )
                    for row in spec["rows"]
                ]
            elif kind == "pairs":
                group.columns = [item["label"] for item in spec["items"]]
                group.rows = [
                    (
                        str(i + 1),
                        [self.form[self._cell(key, i, p)] for p in range(len(spec["items"]))],
                    )
                    for i in range(spec["max_items"])
                ]
            elif f"{PREFIX}-{key}" in self.form.fields:
                group.fields = [self.form[f"{PREFIX}-{key}"]]
            else:
                continue
            out.append(group)
        return out

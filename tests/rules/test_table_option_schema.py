"""Each system publishes the table options a GM may set (`table_option_schema`), for the
set-up form: every option it names is one its own parser knows, and the defaults the schema
states are the parser's (so the form, left alone, changes nothing)."""

import pytest

import rules
from rules.model.errors import InvalidActionError

SYSTEMS = sorted(rules.SYSTEMS)


def _value(spec: dict) -> object:
    return spec["default"]


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_system_publishes_its_table_options(key: str) -> None:
    assert rules.SYSTEMS[key].table_option_schema, f"{key} publishes no table options"


@pytest.mark.parametrize("key", SYSTEMS)
def test_each_published_default_is_accepted_and_equals_an_empty_table(key: str) -> None:
    system = rules.SYSTEMS[key]
    for option, spec in system.table_option_schema.items():
        system.check_table_options({option: _value(spec)}, "table.options")
        for check in system.table_option_checks:
            if check.__name__ == "parse_options":
                assert check({option: _value(spec)}) == check({}), option


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_value_below_a_published_bound_is_refused_by_the_parser(key: str) -> None:
    system = rules.SYSTEMS[key]
    bounded = {
        option: spec
        for option, spec in system.table_option_schema.items()
        if "minimum" in spec or "exclusiveMinimum" in spec
    }
    for option, spec in bounded.items():
        low = spec["exclusiveMinimum"] if "exclusiveMinimum" in spec else spec["minimum"] - 1
        with pytest.raises(InvalidActionError):
            system.check_table_options({option: low}, "table.options")


@pytest.mark.parametrize("key", SYSTEMS)
def test_each_choice_the_schema_offers_is_accepted(key: str) -> None:
    system = rules.SYSTEMS[key]
    for option, spec in system.table_option_schema.items():
        for choice in spec.get("enum", []):
            system.check_table_options({option: choice}, "table.options")
        if spec["type"] == "grid":
            row = spec["rows"][0]
            for cell in spec["cells"]:
                value = (
                    {row: {spec["columns"][0]: cell}}
                    if spec["shape"] == "object"
                    else {row: [cell] * len(spec["columns"])}
                )
                system.check_table_options({option: value}, "table.options")

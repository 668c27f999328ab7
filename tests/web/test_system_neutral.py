"""The web side names no game system: it asks the engine (design.md, "Layers"; issue 10, 5).

Everything system-specific (names, actions, terrain kinds, turn structure, deployment)
comes through `tabletop/services/game_systems.py`. Demo data and migrations may name
a system: they are data, not code.
"""

import re
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("tabletop", "static", "templates")
TEXT_SUFFIXES = {".py", ".js", ".html", ".css", ".txt", ".json", ".svg", ".md"}
#: Every system the design names, registered yet or not (design.md, "What we build").
KNOWN_KEYS = ("aod", "mswars", "lasergrenadiers", "apskirmish")


def is_exempt(path: Path) -> bool:
    relative = path.relative_to(ROOT)
    return "migrations" in relative.parts or path.name == "demo.py"


def forbidden_words() -> list[str]:
    """The systems' keys and the names players read, registered or only designed."""
    keys = set(KNOWN_KEYS) | set(rules.SYSTEMS)
    names = {system.name for system in rules.SYSTEMS.values() if system.name}
    return sorted(keys | names)


def naming_pattern(words: list[str]) -> re.Pattern[str]:
    """A word on its own: `aod's` and `AOD-D23` name a system, `loaded` does not."""
    alternatives = "|".join(re.escape(word) for word in words)
    return re.compile(rf"(?<![A-Za-z0-9])({alternatives})(?![A-Za-z0-9])", re.IGNORECASE)


def web_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in TEXT_SUFFIXES and not is_exempt(path):
                files.append(path)
    return files


def test_the_check_finds_a_system_named_in_any_case_and_only_as_a_word() -> None:
    pattern = naming_pattern(list(KNOWN_KEYS))
    assert pattern.search("aod's orders_used")
    assert pattern.search("see AOD-D23")
    assert pattern.search('MOVE = {"mswars": ["run"]}')
    assert pattern.search("LaserGrenadiers board")
    assert not pattern.search("the table loaded; apskirmishes")


def test_no_file_of_the_web_side_names_a_game_system() -> None:
    pattern = naming_pattern(forbidden_words())
    files = web_files()
    assert len(files) > 50, "the scan found the web side's files"
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = pattern.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert found == [], "the web side names a system; ask tabletop/services/game_systems.py"

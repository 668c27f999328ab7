"""What `collectstatic` writes for production (tabletop/static_storage.py): each JS module
minified by esbuild, one file at a time, with its static and its on-demand imports
(`import("./x.js")`, ondemand.js) rewritten to the hashed names the manifest gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import override_settings

from tabletop import static_storage
from tests.conftest import need

SOURCES = Path(__file__).resolve().parents[2] / "static"
STORAGE = "tabletop.static_storage.HashedCompressedStaticFilesStorage"


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    import shutil

    need("esbuild", bool(shutil.which("esbuild")), "apt-get install esbuild")
    root = tmp_path_factory.mktemp("static")
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": STORAGE},
    }
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    return root, manifest


def served(collected: tuple[Path, dict[str, str]], name: str) -> str:
    root, manifest = collected
    return (root / manifest[name]).read_text()


def test_each_module_is_minified_with_its_local_names_shortened(collected) -> None:
    source = (SOURCES / "js/board/drag.js").read_text()
    minified = served(collected, "js/board/drag.js")
    assert len(minified) < len(source) * 0.6, (len(minified), len(source))
    # A local of the source (a whitespace-only minifier keeps it): esbuild renames it.
    assert "const reasons =" in source and "reasons=" not in minified
    assert "\n//" not in minified and "/**" not in minified  # no comment kept


def test_static_and_on_demand_imports_name_the_hashed_files(collected) -> None:
    _, manifest = collected
    main = served(collected, "js/board/main.js")
    hashed_svg = Path(manifest["js/board/svg.js"]).name
    assert f'from "./{hashed_svg}"' in main
    on_demand = served(collected, "js/board/ondemand.js")
    for module in ("contextmenu.js", "touch.js", "turnnotice.js", "record.js"):
        assert f'import("./{Path(manifest["js/board/" + module]).name}")' in on_demand, module
    # No import names an unhashed board module (a stale copy from a cache, or one module
    # loaded under two names).
    for name in ("js/board/main.js", "js/board/ondemand.js", "js/board/drag.js"):
        plain = re.findall(r'["\']\./[\w/]+\.js["\']', served(collected, name))
        assert plain == [], (name, plain)


def test_without_esbuild_collectstatic_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setattr(static_storage.shutil, "which", lambda name: None)
    with pytest.raises(ImproperlyConfigured, match="apt-get install esbuild"):
        static_storage.esbuild_minify("export const a = 1;")


def test_a_module_esbuild_cannot_read_stops_collectstatic_with_its_message() -> None:
    import shutil

    need("esbuild", bool(shutil.which("esbuild")), "apt-get install esbuild")
    with pytest.raises(ValueError, match="esbuild could not minify"):
        static_storage.esbuild_minify("export const = ;")

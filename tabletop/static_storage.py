"""How `collectstatic` writes the static files for production.

Each JS and CSS file is minified first, so that a browser loads the bytes the board needs
and not the comments that explain it to us: JS by esbuild (Debian's `esbuild` package),
one file at a time, never bundled (comments and layout go, and local names are
shortened: well below what a whitespace-only minifier leaves), CSS by rcssmin
(esbuild's CSS minifier saves next to nothing more; docs/benchmarks.md, "Board").
esbuild keeps each module's `import{a as b}from"./x.js";` statements, which Django's
rewriting below still recognises. Then each file gets its content hash in its name and a
far-future cache lifetime, and is compressed ahead of time (ServeStatic: gzip and
brotli). Django rewrites the references between files to the hashed names: CSS `url()`
always, and JS module `import ... from "./x.js"` statements only with
`support_js_module_import_aggregation`. Without it, `main.<hash>.js` would import the
unhashed `./svg.js`: a deploy could serve a stale module from a cache, and a module
preloaded by its hashed name (templates/tabletop/board.html) would load a second time
under the plain one. Development (DEBUG, or STATIC_SERVED_BY_THE_APP_FROM_SOURCE)
serves the sources as they are.
"""

import shutil
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import rcssmin
from django.core.exceptions import ImproperlyConfigured
from django.core.files.base import ContentFile
from servestatic.storage import CompressedManifestStaticFilesStorage


def esbuild_minify(source: str) -> str:
    """One ES module minified by esbuild as it stands: its imports and exports kept."""
    esbuild = shutil.which("esbuild")
    if esbuild is None:
        raise ImproperlyConfigured(
            "collectstatic minifies JavaScript with esbuild: apt-get install esbuild"
        )
    done = subprocess.run(
        [esbuild, "--minify", "--charset=utf8", "--legal-comments=none", "--log-level=error"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise ValueError(f"esbuild could not minify a static file: {done.stderr.strip()}")
    return done.stdout


#: What minifies each kind of file; other files are copied as they are.
MINIFIERS: dict[str, Callable[[str], str]] = {".js": esbuild_minify, ".css": rcssmin.cssmin}


def minifier(name: str) -> Callable[[str], str] | None:
    return next((m for suffix, m in MINIFIERS.items() if name.endswith(suffix)), None)


class HashedCompressedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def post_process(
        self, paths: dict[str, Any], dry_run: bool = False, **options: Any
    ) -> Iterator[Any]:
        """Minify the collected copies of the JS and CSS files in place, then hash and
        compress from those copies (not from the sources the finders found)."""
        if not dry_run:
            for name in paths:
                minify = minifier(name)
                if minify is None:
                    continue
                with self.open(name) as collected:
                    source = collected.read().decode("utf-8")
                self.delete(name)
                self.save(name, ContentFile(minify(source).encode("utf-8")))
            paths = {name: (self, name) for name in paths}
        yield from super().post_process(paths, dry_run, **options)

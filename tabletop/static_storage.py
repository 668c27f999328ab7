"""How `collectstatic` writes the static files for production.

Each file gets its content hash in its name and a far-future cache lifetime, and is
compressed ahead of time (ServeStatic: gzip and brotli). Django rewrites the
references between files to the hashed names: CSS `url()` always, and JS module
`import ... from "./x.js"` statements only with `support_js_module_import_aggregation`.
Without it, `main.<hash>.js` would import the unhashed `./svg.js`: a deploy could serve
a stale module from a cache, and a module preloaded by its hashed name
(templates/tabletop/board.html) would load a second time under the plain one.
"""

from servestatic.storage import CompressedManifestStaticFilesStorage


class HashedCompressedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

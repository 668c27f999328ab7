"""The ASGI entry point: HTTP goes to Django, websockets to the table consumers.

Websockets pass the origin check (the site's own scheme, host and port:
tabletop/origin.py) and session authentication before they reach a consumer.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
django_http = get_asgi_application()  # sets Django up before the imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from tabletop.origin import SameOriginValidator  # noqa: E402
from tabletop.routing import websocket_urlpatterns  # noqa: E402
from tabletop.table_socket import frame_writes  # noqa: E402

# Development serves the static source files as they are, so that one command runs
# the whole product; production serves the hashed, compressed files collectstatic
# wrote (ServeStatic in the middleware, or the proxy: docs/deploy/).
http = (
    ASGIStaticFilesHandler(django_http)
    if settings.STATIC_SERVED_BY_THE_APP_FROM_SOURCE
    else django_http
)

application = ProtocolTypeRouter(
    {
        "http": http,
        # Django's path() routes the websockets (tabletop/routing.py).
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)

# Daphne's websocket text frames written at once, not on the event loop's next turn.
frame_writes.install()

# Garbage collection pauses every table the process serves. What is loaded by now
# (Django, the rules engine with shapely and numpy) lives as long as the process:
# frozen, full collections stop scanning it (they took ~50 ms with 200 sockets open,
# ~10 ms after). A young generation of 50,000 objects instead of 700 makes collections
# rarer: a broadcast to 200 sockets allocates thousands (docs/benchmarks.md).
gc.freeze()
gc.set_threshold(50_000, 20, 100)

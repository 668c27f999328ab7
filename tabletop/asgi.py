"""The ASGI entry point: HTTP goes to Django, websockets to the table consumers.

Websockets pass the origin check (the page's own hosts only) and session
authentication before they reach a consumer.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
django_http = get_asgi_application()  # sets Django up before the imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from tabletop.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Static files are served by the app itself so that one command runs
        # the whole product; a production proxy may serve STATIC_ROOT instead.
        "http": ASGIStaticFilesHandler(django_http),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Garbage collection pauses every table the process serves. What is loaded by now
# (Django, the rules engine with shapely and numpy) lives as long as the process:
# frozen, full collections stop scanning it (they took ~50 ms with 200 sockets open,
# ~10 ms after). A young generation of 50,000 objects instead of 700 makes collections
# rarer: a broadcast to 200 sockets allocates thousands (docs/benchmarks.md).
gc.freeze()
gc.set_threshold(50_000, 20, 100)

"""The ASGI entry point: HTTP goes to Django, websockets to the table consumers.

Websockets pass the origin check (the page's own hosts only) and session
authentication before they reach a consumer.
"""

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

"""Websocket routes."""

from django.urls import path

from tabletop.consumers import TableConsumer

# Channels routes ASGI applications with Django's path(), whose stub expects a view (and
# URLRouter's stub a pattern whose callback is an ASGI application: tabletop/asgi.py).
websocket_urlpatterns = [
    path("ws/battles/<int:battle_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]

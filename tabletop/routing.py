"""Websocket routes."""

from django.urls import path

from tabletop.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/battles/<int:battle_id>/", TableConsumer.as_asgi()),
]

from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    default_auto_field = "django.db.models.BigAutoField"

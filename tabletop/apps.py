from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tabletop.services.table import rights

        # Open table sockets learn at once that their user's rights changed.
        rights.connect_signals()

"""The Django admin for every model: searchable, filterable, and read-only where history lives."""

from collections.abc import Iterable

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from tabletop import login_throttle, models
from tabletop.account_forms import AdminLoginForm
from tabletop.models.battle import BattleStatus

# The admin's login is throttled like the site's (tabletop/login_throttle.py).
admin.site.login_form = AdminLoginForm


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's user admin, and a way to let someone in again after failed logins."""

    actions = ["forget_failed_logins"]

    @admin.action(description="Forget their failed logins (they may log in again now)")
    def forget_failed_logins(self, request: HttpRequest, queryset: QuerySet) -> None:
        for user in queryset:
            login_throttle.forget_name(user.get_username())
        self.message_user(request, f"Forgot the failed logins of {len(queryset)} account(s).")


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0


class UnitProfileInline(admin.TabularInline):
    model = models.UnitProfile
    extra = 0


def has_history(battles: Iterable[models.Battle]) -> bool:
    """Whether deleting these battles would delete events (the cascade would)."""
    return models.Event.objects.filter(battle__in=battles).exists()


def has_begun(battle: object) -> bool:
    """A battle out of the lobby, or with events: the table plays it as it was set up.
    Its status, campaign, map and sides then change only through the site's services
    (begin, result), never here: set back to lobby in the admin, the table served it
    as a lobby."""
    if not isinstance(battle, models.Battle):
        return False
    return battle.status != BattleStatus.LOBBY or has_history([battle])


class BattleSideInline(admin.TabularInline):
    model = models.BattleSide
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return not has_begun(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return not has_begun(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return not has_begun(obj) and super().has_delete_permission(request, obj)


@admin.register(models.Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "gm", "points_limit", "created_at"]
    list_filter = ["system"]
    search_fields = ["name", "gm__username"]
    inlines = [MembershipInline]

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        if isinstance(obj, models.Campaign) and has_history(obj.battles.all()):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "joined_at"]
    list_filter = ["role"]
    search_fields = ["user__username", "campaign__name"]


@admin.register(models.Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["campaign", "role", "single_use", "uses", "expires_at", "created_by"]
    list_filter = ["role", "single_use"]
    readonly_fields = ["token", "uses"]


@admin.register(models.Roster)
class RosterAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "campaign", "faction"]
    search_fields = ["name", "owner__username", "campaign__name"]
    inlines = [UnitProfileInline]


@admin.register(models.UnitProfile)
class UnitProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "unit_type", "points", "status", "roster"]
    list_filter = ["status", "unit_type"]
    search_fields = ["name", "roster__name"]


@admin.register(models.Map)
class MapAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "width", "height"]
    search_fields = ["name", "campaign__name"]
    # A picture comes only through the map's page, re-encoded (services/picture.py).
    readonly_fields = ["image", "image_place"]


@admin.register(models.MapImage)
class MapImageAdmin(admin.ModelAdmin):
    """Maps' pictures, read and deleted here (one a battle was set up with stays); never
    added or changed: only the map's page takes a picture, and re-encodes it."""

    list_display = ["pk", "campaign", "content_type", "width_px", "height_px", "created_at"]
    exclude = ["data"]
    readonly_fields = ["campaign", "content_type", "width_px", "height_px", "digest"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[models.MapImage]:
        return super().get_queryset(request).defer("data")  # not megabytes to list names

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(models.Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "map", "status", "last_seq", "created_at"]
    list_filter = ["status"]
    search_fields = ["name", "campaign__name"]
    inlines = [BattleSideInline]
    # The position, its sequence number and the turn are the event log's result: only
    # the table changes them, through the referee (a GM's fiat or undo is an event too).
    # Edited here, they would disagree with the log that replays them.
    readonly_fields = ["state", "last_seq", "turn_state", "backdrop", "backdrop_place"]

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> list[str]:
        fixed = ["campaign", "map", "status"] if has_begun(obj) else []
        return [*self.readonly_fields, *fixed]

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        # Deleting a battle would delete its events with it.
        if isinstance(obj, models.Battle) and has_history([obj]):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(models.BattleSide)
class BattleSideAdmin(admin.ModelAdmin):
    list_display = ["battle", "roster", "side"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a lobby battle's sides are set on its own page (BattleSideInline)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        battle = obj.battle if isinstance(obj, models.BattleSide) else None
        return not has_begun(battle) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        battle = obj.battle if isinstance(obj, models.BattleSide) else None
        return not has_begun(battle) and super().has_delete_permission(request, obj)


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    # The event log is the battle's history: it is read here, never edited.
    list_display = ["battle", "seq", "kind", "actor", "created_at"]
    list_filter = ["kind"]
    readonly_fields = ["battle", "seq", "actor", "kind", "payload", "client_msg_id", "created_at"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(models.BattleResult)
class BattleResultAdmin(admin.ModelAdmin):
    list_display = ["battle", "winner_side", "outcome", "recorded_by", "recorded_at"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the admin shows but never adds, changes or deletes."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(models.ResultCorrection)
class ResultCorrectionAdmin(ReadOnlyAdmin):
    # The audit of corrected results: kept as they were made, as the event log.
    list_display = ["result", "corrected_by", "corrected_at"]


@admin.register(models.CatalogueProfile)
class CatalogueProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "unit_type", "points"]
    search_fields = ["name", "campaign__name"]


@admin.register(models.CampaignLogEntry)
class CampaignLogEntryAdmin(admin.ModelAdmin):
    list_display = ["campaign", "text", "actor", "created_at"]
    search_fields = ["text", "campaign__name"]


@admin.register(models.CommandReply)
class CommandReplyAdmin(ReadOnlyAdmin):
    # A stored reply answers a client's resend of the same command (docs/protocol.md,
    # message ids): deleted, the resend would be judged again. `prune_table` removes old
    # ones on a timer; here they are read only.
    list_display = ["battle", "actor", "client_msg_id", "created_at"]


@admin.register(models.Annotation)
class AnnotationAdmin(ReadOnlyAdmin):
    # Drawn and erased by events of the battle's log (services/table/annotations.py);
    # this table only indexes them, so the admin reads it and changes nothing.
    list_display = ["battle", "seq", "by", "erased_seq"]


@admin.register(models.PieceMarker)
class PieceMarkerAdmin(ReadOnlyAdmin):
    # Put and taken off by events of the battle's log (services/table/piece_markers.py);
    # this table only indexes them, as annotations.
    list_display = ["battle", "seq", "unit", "text", "by", "removed_seq"]


@admin.register(models.TurnNoticeSettings)
class TurnNoticeSettingsAdmin(admin.ModelAdmin):
    # A user's own choice (services/turn_notices.py): the admin may switch one off for
    # someone whose mail bounces.
    list_display = ["user", "mail", "browser"]
    search_fields = ["user__username"]


@admin.register(models.TurnNotified)
class TurnNotifiedAdmin(ReadOnlyAdmin):
    # What keeps a turn from being mailed twice: changed by hand, a player would be
    # mailed again (or never) for the turn it names.
    list_display = ["battle", "user", "turn_key", "at"]


@admin.register(models.TableConnection)
class TableConnectionAdmin(admin.ModelAdmin):
    list_display = ["battle", "user", "role", "channel_name", "last_seen"]

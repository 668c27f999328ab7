from django.contrib import admin
from django.urls import include, path

from tabletop import views
from tabletop.views import (
    accounts,
    battles,
    board,
    campaigns,
    catalogue,
    health,
    maps,
    reports,
    rosters,
    turn_notices,
)

campaign_urls = [
    path("", campaigns.campaign_detail, name="campaign"),
    path("settings/", campaigns.campaign_settings, name="campaign_settings"),
    path("invitations/", campaigns.invitation_new, name="invitation_new"),
    path("members/<int:user_id>/", campaigns.member_role, name="member_role"),
    path("rosters/new/", rosters.roster_new, name="roster_new"),
    path("rosters/import/", rosters.roster_import_page, name="roster_import"),
    path("rosters/<int:roster_id>/", rosters.roster_detail, name="roster"),
    path("rosters/<int:roster_id>/export.json", rosters.roster_export, name="roster_export"),
    path("rosters/<int:roster_id>/units/", rosters.unit_new, name="unit_new"),
    path("rosters/<int:roster_id>/units/<int:unit_id>/", rosters.unit_edit, name="unit"),
    path(
        "rosters/<int:roster_id>/units/<int:unit_id>/delete/",
        rosters.unit_delete,
        name="unit_delete",
    ),
    path("rosters/<int:roster_id>/pick/", catalogue.catalogue_pick, name="catalogue_pick"),
    # The campaign's catalogue of named unit profiles.
    path("catalogue/", catalogue.catalogue, name="catalogue"),
    path("catalogue/export.json", catalogue.catalogue_export, name="catalogue_export"),
    path("catalogue/import/", catalogue.catalogue_upload, name="catalogue_import"),
    path("catalogue/<int:profile_id>/", catalogue.catalogue_profile, name="catalogue_profile"),
    path(
        "catalogue/<int:profile_id>/delete/",
        catalogue.catalogue_profile_delete,
        name="catalogue_profile_delete",
    ),
    path("maps/new/", maps.map_new, name="map_new"),
    path("maps/<int:map_id>/", maps.map_edit, name="map"),
    path("maps/<int:map_id>/delete/", maps.map_remove, name="map_delete"),
    path("maps/<int:map_id>/picture/", maps.map_picture, name="map_picture"),
    path("maps/<int:map_id>/picture/delete/", maps.map_picture_delete, name="map_picture_delete"),
    path("battles/new/", battles.battle_new, name="battle_new"),
    path("battles/<int:battle_id>/", battles.battle_detail, name="battle"),
    path("battles/<int:battle_id>/deploy/", battles.battle_deployment, name="battle_deploy"),
    path("battles/<int:battle_id>/start/", battles.battle_begin, name="battle_start"),
    path("battles/<int:battle_id>/result/", battles.battle_result, name="battle_result"),
    path(
        "battles/<int:battle_id>/result/correct/",
        battles.battle_result_correction,
        name="battle_result_correct",
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/", campaigns.campaign_list, name="campaigns"),
    path("campaigns/<int:campaign_id>/", include(campaign_urls)),
    path("join/<str:token>/", campaigns.join, name="join"),
    # A map's picture: its address names its content (SHA-256), cached for good.
    path("pictures/<int:image_id>/<str:digest>", maps.map_picture_file, name="map_picture_file"),
    path("battles/<int:battle_id>/board/", board.board, name="board"),
    path("battles/<int:battle_id>/board/at/<int:seq>/", board.board_position, name="board_at"),
    # The battle's record: report, event log, position and ruling files.
    path("battles/<int:battle_id>/report/", reports.report, name="battle_report"),
    path("battles/<int:battle_id>/report.svg", reports.report_file, name="battle_report_svg"),
    path("battles/<int:battle_id>/events.jsonl", reports.event_log, name="battle_events_jsonl"),
    path(
        "battles/<int:battle_id>/position.json",
        reports.position_file,
        name="battle_position_file",
    ),
    path("battles/<int:battle_id>/ruling.json", reports.ruling_file, name="battle_ruling_file"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/signup/done/", accounts.signup_done, name="signup_done"),
    path("accounts/verify/<str:token>/", accounts.verify, name="account_verify"),
    path("accounts/login/", views.login_page, name="login"),
    # Limited (tabletop/rate_limits.py): reset mail, wrong current passwords; a completed
    # reset forgets the name's failed logins.
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("accounts/password_change/", accounts.password_change, name="password_change"),
    path("accounts/turn-notices/", turn_notices.turn_notice_settings, name="turn_notice_settings"),
    # logout, password change and reset: Django's views, the site's own templates
    # (templates/registration/).
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", health.metrics, name="metrics"),
    # Before the admin's own: answered 429 when throttled, as the site's login is.
    path("admin/login/", accounts.admin_login),
    path("admin/", admin.site.urls),
]

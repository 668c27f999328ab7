from django.contrib import admin

from tabletop import models

for model in (
    models.Campaign,
    models.Membership,
    models.Invitation,
    models.Roster,
    models.UnitProfile,
    models.Map,
    models.Battle,
    models.BattleSide,
    models.Event,
    models.BattleResult,
    models.CommandReply,
    models.TableConnection,
):
    admin.site.register(model)

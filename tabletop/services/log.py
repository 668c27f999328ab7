"""The campaign log, written by the other services as part of their own transaction."""

from django.contrib.auth.models import User

from tabletop.models import Campaign, CampaignLogEntry


def campaign_log_add(*, campaign: Campaign, actor: User | None, text: str) -> CampaignLogEntry:
    return CampaignLogEntry.objects.create(campaign=campaign, actor=actor, text=text[:300])

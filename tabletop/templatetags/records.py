"""The campaign at a glance, for the campaign page.

{% load records %}{% campaign_glance campaign seen %}
"""

from django import template
from django.utils.safestring import mark_safe

from tabletop.models import Campaign
from tabletop.records.campaign import CampaignSeen, standings_chart
from tabletop.records.campaign import campaign_glance as glance_of

register = template.Library()


@register.inclusion_tag("tabletop/reports/campaign_glance.html")
def campaign_glance(campaign: Campaign, seen: CampaignSeen | None = None) -> dict:
    glance = glance_of(campaign, seen)
    return {
        "glance": glance,
        # Built by standings_chart, which escapes every text it writes.
        "chart": mark_safe(standings_chart(glance)),  # noqa: S308
        "rows": glance.rows(),
    }

"""Campaign pages: the list, creating one, its page, settings, invitations and members."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tabletop import selectors
from tabletop.forms import (
    CampaignForm,
    CampaignSettingsForm,
    InvitationForm,
    MembershipRoleForm,
    RosterForm,
    RosterImportForm,
)
from tabletop.models import Campaign, Invitation, Membership, Role
from tabletop.records.campaign import campaign_seen
from tabletop.services.campaigns import (
    campaign_create,
    campaign_update,
    invitation_accept,
    invitation_create,
    invitation_problem,
    membership_set,
)
from tabletop.services.errors import ServiceError
from tabletop.views.access import (
    SignedInRequest,
    campaign_page,
    found,
    render_form_page,
    require_gm,
    submit,
)


@login_required
def campaign_list(request: SignedInRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        campaign, ok = submit(
            form,
            lambda: campaign_create(
                gm=request.user,
                name=form.cleaned_data["name"],
                system=form.cleaned_data["system"],
                points_limit=form.cleaned_data["points_limit"],
            ),
        )
        if ok:
            return redirect("campaign", campaign_id=campaign.pk)
    context = {"campaigns": selectors.campaigns_of(request.user), "form": form}
    return render_form_page(
        request, "tabletop/campaigns/list.html", context, invalid=request.method == "POST"
    )


def _campaign_context(request: HttpRequest, campaign: Campaign, membership: Membership) -> dict:
    # A spectator sees no result of a delayed battle before its delay has passed.
    seen = campaign_seen(campaign, membership.role)
    return {
        "campaign": campaign,
        "membership": membership,
        "seen": seen,
        "is_gm": membership.role == Role.GM,
        "members": selectors.members(campaign),
        "rosters": seen.rosters(selectors.rosters_with_points(campaign)),
        "maps": campaign.maps.all(),
        "battles": seen.battles(selectors.battles(campaign)),
        "standings": selectors.standings(campaign, seen.hidden),
        "log": seen.log(selectors.campaign_log(campaign)),
        "invitations": campaign.invitations.order_by("-created_at")[:5]
        if membership.role == Role.GM
        else [],
        "invitation_form": InvitationForm(),
        "role_form": MembershipRoleForm(),
        "roster_form": RosterForm(),
        "import_form": RosterImportForm(),
        "may_field_roster": membership.role in (Role.GM, Role.PLAYER),
    }


@campaign_page
def campaign_detail(
    request: HttpRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    return render(
        request, "tabletop/campaigns/detail.html", _campaign_context(request, campaign, membership)
    )


@campaign_page
def campaign_settings(
    request: SignedInRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    require_gm(membership)
    initial = {"name": campaign.name, "points_limit": campaign.points_limit}
    form = CampaignSettingsForm(
        request.POST or None,
        initial=initial,
        system=campaign.system,
        options=campaign.table_options,
    )
    if request.method == "POST":
        _, ok = submit(
            form,
            lambda: campaign_update(
                actor=request.user,
                campaign=campaign,
                name=form.cleaned_data["name"],
                points_limit=form.cleaned_data["points_limit"],
                table_options=form.options.values(),
            ),
            refuse=form.refuse,
        )
        if ok:
            messages.success(request, "Campaign settings saved.")
            return redirect("campaign", campaign_id=campaign.pk)
    return render_form_page(
        request,
        "tabletop/campaigns/settings.html",
        {"campaign": campaign, "form": form},
        invalid=request.method == "POST",
    )


@require_POST
@campaign_page
def invitation_new(
    request: SignedInRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    require_gm(membership)
    form = InvitationForm(request.POST)
    invitation, ok = submit(
        form,
        lambda: invitation_create(
            campaign=campaign,
            created_by=request.user,
            role=form.cleaned_data["role"],
            valid_for=timedelta(days=form.cleaned_data["valid_days"]),
            single_use=form.cleaned_data["single_use"],
        ),
    )
    if not ok:
        context = _campaign_context(request, campaign, membership) | {"invitation_form": form}
        return render_form_page(request, "tabletop/campaigns/detail.html", context, invalid=True)
    link = request.build_absolute_uri(reverse("join", args=[invitation.token]))
    messages.success(request, f"Invitation link: {link}")
    return redirect("campaign", campaign_id=campaign.pk)


@require_POST
@campaign_page
def member_role(
    request: SignedInRequest, campaign: Campaign, membership: Membership, user_id: int
) -> HttpResponse:
    require_gm(membership)
    member = found(campaign.memberships.select_related("user").filter(user_id=user_id).first())
    form = MembershipRoleForm(request.POST)
    _, ok = submit(
        form,
        lambda: membership_set(
            actor=request.user, campaign=campaign, user=member.user, role=form.cleaned_data["role"]
        ),
    )
    if not ok:
        messages.error(request, "; ".join(str(m) for ms in form.errors.values() for m in ms))
        return redirect("campaign", campaign_id=campaign.pk)
    return redirect("campaign", campaign_id=campaign.pk)


def join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: GET shows what it is for, POST joins (no change on a GET).

    A visitor without an account reads the invitation and signs up or logs in from here;
    the link travels with them (`next`) and they join on the way back (views.accounts)."""
    invitation = get_object_or_404(Invitation.objects.select_related("campaign"), token=token)
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            membership = invitation_accept(token=token, user=request.user)
        except ServiceError as refused:
            error = refused.message
        else:
            messages.success(request, f"You joined {membership.campaign.name}.")
            return redirect("campaign", campaign_id=membership.campaign_id)
    already = selectors.membership_of(request.user, invitation.campaign_id)
    return render(
        request,
        "tabletop/campaigns/join.html",
        {
            "invitation": invitation,
            "error": error,
            "already": already,
            # A used or expired link says so and offers no "Join".
            "problem": None if already else invitation_problem(invitation),
            "next": request.path,
        },
        status=400 if error else 200,
    )

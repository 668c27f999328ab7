"""The user's turn notice settings (play by correspondence). Thin: the form in, the
service (tabletop/services/turn_notices.py) keeps the choice."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render

from tabletop.services.turn_notices import notice_settings_of, notice_settings_update
from tabletop.views.access import SignedInRequest


class TurnNoticeForm(forms.Form):
    mail = forms.BooleanField(required=False, label="Mail me when it is my turn")
    browser = forms.BooleanField(
        required=False,
        label="Show a browser notification when it is my turn and the board is in the background",
    )


@login_required
def turn_notice_settings(request: SignedInRequest) -> HttpResponse:
    current = notice_settings_of(request.user)
    form = TurnNoticeForm(
        request.POST or None, initial={"mail": current.mail, "browser": current.browser}
    )
    if request.method == "POST" and form.is_valid():
        notice_settings_update(
            user=request.user,
            mail=form.cleaned_data["mail"],
            browser=form.cleaned_data["browser"],
        )
        messages.success(request, "Your turn notices are saved.")
        return redirect("turn_notice_settings")
    context = {"form": form, "email": getattr(request.user, "email", "")}
    return render(request, "tabletop/turn_notices.html", context)

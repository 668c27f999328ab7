"""Pages. Thin: forms and requests in, services and selectors do the work."""

from typing import Any

from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tabletop import selectors
from tabletop.account_forms import LoginForm, SignupForm


def home(request: HttpRequest) -> HttpResponse:
    campaigns = selectors.campaigns_of(request.user)
    return render(request, "tabletop/home.html", {"campaigns": campaigns})


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class ThrottledLoginView(LoginView):
    """The login page; a locked-out login is answered 429 (Too Many Requests)."""

    authentication_form = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if any(error.code == "locked_out" for error in form.non_field_errors().as_data()):
            response.status_code = 429
        return response


login_page = ThrottledLoginView.as_view()

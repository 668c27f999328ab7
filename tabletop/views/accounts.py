"""Pages. Thin: forms and requests in, services and selectors do the work."""

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tabletop import selectors


def home(request: HttpRequest) -> HttpResponse:
    campaigns = selectors.campaigns_of(request.user)
    return render(request, "tabletop/home.html", {"campaigns": campaigns})


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})

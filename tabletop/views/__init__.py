"""Pages. Thin: forms and requests in, services and selectors do the work."""

from tabletop.views.accounts import home, login_page, signup

__all__ = ["home", "login_page", "signup"]

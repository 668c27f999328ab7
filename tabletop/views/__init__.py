"""Pages. Thin: forms and requests in, services and selectors do the work."""

from tabletop.views.accounts import home, signup

__all__ = ["home", "signup"]

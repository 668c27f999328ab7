"""One line per refusal in the log: tracebacks only where the server itself failed.

Django logs a request refused for the client's fault with the exception attached: an
unknown Host (`django.security.DisallowedHost`, at ERROR) or a permission error (403,
`django.request`, at WARNING) each wrote a multi-line traceback that says nothing the
message does not. Each is one warning line now; a 500 (`django.request` at ERROR) keeps
its traceback.
"""

import logging


class ClientFaultsOnOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security"):
            # A forged or unknown Host is the client's doing: a warning, not an error.
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if record.levelno < logging.ERROR:
            record.exc_info = None
            record.exc_text = None
        return True

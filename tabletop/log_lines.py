"""One line per refusal in the log: tracebacks only where the server itself failed.

Django logs a request refused for the client's fault with the exception attached: an
unknown Host (`django.security.DisallowedHost`, at ERROR) or a permission error (403,
`django.request`, at WARNING) each wrote a multi-line traceback that says nothing the
message does not. A 500 (`django.request` at ERROR) keeps its traceback.
"""

import logging


class ClientFaultsOnOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR or record.name.startswith("django.security"):
            record.exc_info = None
            record.exc_text = None
        return True

# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint install bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	@echo ""
	@echo "Tabletop is running at http://127.0.0.1:8000/  (Ctrl-C stops it)"
	$(BIN)/daphne -b 127.0.0.1 -p 8000 tabletop.asgi:application

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/validate.py

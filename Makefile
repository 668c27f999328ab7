# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint lint-steps check install bench

# Bytecode is written even where the shell says not to (PYTHONDONTWRITEBYTECODE=1 on the
# development and CI machines): without it every process compiled the project from source
# and pytest rewrote every test module's asserts again (tests/rules' collection 4.1 s of
# CPU a worker, 2.0-2.3 s from the cache; each Daphne a test starts 0.2 s more).
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

# `make run PORT=8001` serves on another port; the address is printed once it listens.
PORT ?= 8000
run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	@if $(BIN)/python -c "import socket; socket.create_connection(('127.0.0.1', $(PORT)), 0.5)" 2>/dev/null; then \
	  echo "Port $(PORT) is taken; try make run PORT=8001"; exit 1; fi
	@$(BIN)/daphne -b 127.0.0.1 -p $(PORT) tabletop.asgi:application & server=$$!; \
	trap 'kill $$server 2>/dev/null' INT TERM EXIT; \
	until $(BIN)/python -c "import socket; socket.create_connection(('127.0.0.1', $(PORT)), 0.5)" 2>/dev/null; do \
	  kill -0 $$server 2>/dev/null || exit 1; sleep 0.2; done; \
	echo ""; echo "Tabletop is listening at http://127.0.0.1:$(PORT)/  (Ctrl-C stops it)"; \
	wait $$server

# ESLint and TypeScript's checker from the npm registry for the pages' scripts
# (static/js): the versions tools/eslint/package-lock.json pins, ESLint's rules in
# tools/eslint/eslint.config.mjs, the checker's (JSDoc types, `// @ts-check`, nothing
# emitted) in tools/eslint/jsconfig.json.
ESLINT := tools/eslint/node_modules/.bin/eslint
TSC := tools/eslint/node_modules/.bin/tsc
ESLINT_STAMP := tools/eslint/node_modules/.installed
$(ESLINT_STAMP): tools/eslint/package-lock.json
	npm ci --prefix tools/eslint --no-audit --no-fund
	touch $(ESLINT_STAMP)

FORMATTED := rules tabletop tests bench manage.py
lint: $(STAMP) $(ESLINT_STAMP)
	@$(MAKE) --no-print-directory lint-steps

# lint's commands, without the installs (`make check` runs them beside its tests, once
# its own prerequisites have installed the tools).
lint-steps:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check $(FORMATTED)
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(ESLINT) --config tools/eslint/eslint.config.mjs static/js
	$(TSC) --noEmit -p tools/eslint/jsconfig.json

# The fast check before a commit: lint and types, the engine's tests and goldens (no
# browsers, sockets or servers; `make test` runs everything, these tests included).
# The tests run in $(CHECK_WORKERS) pytest-xdist workers and, beside them, lint and the
# goldens' command line, whose output follows the tests': mostly one process each, they
# fill what the workers leave of the cores (run one after the other they added 15-30 s).
# Without pytest-django (-p no:django): rules/ has no Django, and its fixtures around
# each of the ~3,900 tests cost 10-14% of the CPU of the quickest ones (test_golden.py,
# test_refusal_words.py); tests/conftest.py still reads the settings, named here.
# Either lane failing fails.
CHECK_WORKERS ?= 2
check: $(STAMP) $(ESLINT_STAMP)
	@mkdir -p .test-logs
	@{ $(MAKE) --no-print-directory lint-steps && \
	  $(BIN)/python -m rules check --expect tests/rules/golden > /dev/null; \
	} > .test-logs/check-lint.log 2>&1 & lint=$$!; \
	DJANGO_SETTINGS_MODULE=tabletop.settings \
	  $(BIN)/pytest tests/rules -q -n $(CHECK_WORKERS) -p no:django \
	  -W "ignore:Unknown config option. DJANGO_SETTINGS_MODULE"; tests=$$?; \
	wait $$lint; linted=$$?; \
	echo "--- make lint and python -m rules check --expect tests/rules/golden (exit $$linted) ---"; \
	cat .test-logs/check-lint.log; \
	test $$tests = 0 && test $$linted = 0

# axe-core from the npm registry, for the browser tests' accessibility checks
# (tests/browser/axe.py): the version tests/browser/axe/package-lock.json pins.
AXE := tests/browser/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/axe/package-lock.json
	npm ci --prefix tests/browser/axe --no-audit --no-fund

# The suite runs in $(TEST_WORKERS) pytest-xdist workers, a test file to each at a time
# (its module fixtures stay whole): most tests wait on browsers, sockets and servers, so
# one process left the cores half idle and the suite grew past 30 minutes. Each worker
# has its own test database (pytest-django) and Redis database (tests/conftest.py).
# The clean-machine test (tests/deploy/test_clean_root.py: Debian from debootstrap, the
# installer as an admin types it) runs beside them at the same priority: niced, it
# starved behind the workers (its debootstrap took 33 minutes instead of 1.5); its
# output follows the suite's. Either failing fails.
TEST_WORKERS ?= 3
test: lint $(AXE)
	@mkdir -p .test-logs
	@DATABASE_URL=sqlite:///$(CURDIR)/.test-logs/clean-root.sqlite3 \
	  $(BIN)/pytest -s -m clean_root --basetemp=.test-logs/clean-root-tmp \
	  > .test-logs/clean-root.log 2>&1 & machine=$$!; \
	$(BIN)/pytest -m "not clean_root" -n $(TEST_WORKERS) --dist loadfile; suite=$$?; \
	wait $$machine; clean_root=$$?; \
	echo "--- tests/deploy/test_clean_root.py, run beside the suite (exit $$clean_root) ---"; \
	cat .test-logs/clean-root.log; \
	test $$suite = 0 && test $$clean_root = 0

bench: $(STAMP)
	$(BIN)/python bench/validate.py

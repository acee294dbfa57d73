# The front door. `make serve` to work on the site, `make test` to run every test.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PY_STAMP  := $(VENV)/.requirements.stamp
NPM_STAMP := node_modules/.npm-ci.stamp

.PHONY: serve site test lint fix bench mutate deps chromium clean lock

serve: deps
	$(PY) -m sitegen serve

site: deps
	$(PY) -m sitegen build

test: deps chromium lint
	$(PY) -m sitegen build
	$(PY) -m pytest -q -n auto

# Style and types: ruff (lint and format) for all Python, mypy (strict on the engine), eslint
# for the JavaScript; configured in pyproject.toml and eslint.config.mjs. `make fix` applies
# what can be fixed automatically.
lint: deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	npx --no-install eslint .

fix: deps
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
	npx --no-install eslint --fix .

bench: site
	$(PY) -m pip install -q -r requirements-bench.txt
	$(PY) bench/deadwood.py
	$(PY) bench/strength.py
	$(PY) bench/coach.py
	node bench/pyodide_deadwood.mjs
	$(PY) bench/site.py
	$(PY) bench/browser.py $(if $(BEFORE),--before $(BEFORE))
	$(PY) bench/play_worker.py

# Mutation testing of the engine and the build code (slow: on demand, not part of test).
mutate: deps
	$(PY) -m pip install -q -r requirements-mutate.txt
	$(PY) tests/mutation/mutate.py $(TARGETS)

deps: $(PY_STAMP) $(NPM_STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# requirements.lock pins every build and test dependency with its hashes (made by `make lock`
# from requirements.txt); the project's own three packages are installed from the checkout.
$(PY_STAMP): requirements.lock pyproject.toml engine/pyproject.toml presentation/pyproject.toml | $(PY)
	$(PY) -m pip install -q --require-hashes -r requirements.lock
	$(PY) -m pip install -q --no-deps -e ./engine -e ./presentation -e .
	touch $@

# After a change to requirements.txt: resolve it again, with hashes (pip-tools, pinned here).
lock: | $(PY)
	$(PY) -m pip install -q pip-tools==7.6.2
	$(VENV)/bin/pip-compile -q --generate-hashes --allow-unsafe --strip-extras --no-header \
	  --no-emit-index-url --no-emit-find-links -o requirements.lock requirements.txt

# npm ci only when node_modules does not already hold the pinned Pyodide, axe-core (tests) and
# eslint (lint).
$(NPM_STAMP): package.json package-lock.json | $(PY_STAMP)
	@($(PY) -m sitegen check-runtime && test -f node_modules/axe-core/axe.min.js \
	  && test -x node_modules/.bin/eslint) >/dev/null 2>&1 \
	  || npm ci
	@mkdir -p node_modules && touch $@

# Browser tests need /usr/bin/chromium; install it through apt when we can.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    apt-get update && apt-get install -y chromium; \
	  elif command -v apt-get >/dev/null && command -v sudo >/dev/null; then \
	    sudo apt-get update && sudo apt-get install -y chromium; \
	  else \
	    echo "chromium not found: install it (apt-get install chromium) for the browser tests"; \
	  fi; \
	fi

clean:
	rm -rf site .site.new .site.old .cache .mutate

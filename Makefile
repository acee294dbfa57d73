# The front door. `make serve` to work on the site, `make test` to run every test.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PY_STAMP  := $(VENV)/.requirements.stamp
NPM_STAMP := node_modules/.npm-ci.stamp

.PHONY: serve site test check lint fix bench mutate deps setup clean lock

serve: deps
	$(PY) -m sitegen serve

site: deps
	$(PY) -m sitegen build

# The site is built once, here, and every test that needs a built site reads it (GIN_SITE_DIR);
# the slowest tests are listed at the end.
test: deps setup lint
	$(PY) -m sitegen build
	GIN_SITE_DIR=site $(PY) -m pytest -q -n auto --durations=20

# Before each commit: the lint and the tests that need no built site, no browser and no long run
# (pytest.ini's markers: needs_site, soak, slow). `make test` runs every test.
check: deps lint
	$(PY) -m pytest -q -n auto -m "not needs_site and not soak and not slow" \
		--ignore=tests/browser --ignore=tests/pyodide

# Style and types: ruff (lint and format) for all Python, mypy (strict, on the engine, ginview
# and sitegen), eslint for the JavaScript; configured in pyproject.toml and eslint.config.mjs.
# `make fix` applies what can be fixed automatically.
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

# What the tests need from the system, from Debian's packages: Chromium (the browser tests),
# nginx with its Brotli module (the site is tested behind it, as the README configures it),
# Caddy and Apache (their configurations are checked by their own tools). Installed once, by
# apt-get as root; otherwise it says what to install and stops.
SYSTEM_PACKAGES := chromium nginx libnginx-mod-http-brotli-static caddy apache2
SYSTEM_FILES := /usr/bin/chromium /usr/sbin/nginx \
  /usr/lib/nginx/modules/ngx_http_brotli_static_module.so /usr/bin/caddy /usr/sbin/apache2
setup:
	@missing=""; for f in $(SYSTEM_FILES); do [ -e $$f ] || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing $(SYSTEM_PACKAGES) (missing:$$missing)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      $(SYSTEM_PACKAGES) >/dev/null; \
	  else \
	    echo "missing:$$missing; install them as root: apt-get install $(SYSTEM_PACKAGES)"; \
	    exit 1; \
	  fi; \
	fi

clean:
	rm -rf site .site.new .site.old .cache .mutate

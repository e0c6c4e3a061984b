# The only commands anyone needs; see README.md.
PY := .venv/bin/python
STAMP := .venv/.install-stamp
PYTEST_ARGS ?=

.PHONY: help install run test lint typecheck check bench bench-solver bench-rooms build clean \
	distclean cluster screenshots
.PHONY: bench-boards bench-uploads bench-daily bench-arena

# Every target people run has a "## what it does" line, which `make help` prints.
help: ## list these targets, one line each
	@awk 'BEGIN { FS = ":[^#]*## " } /^[a-z][a-z-]*:.*## / { printf "  make %-13s %s\n", $$1, $$2 }' \
		$(MAKEFILE_LIST)

install: $(STAMP) ## create .venv and install the project with its dev tools (once)

# Reinstall only when the packaging or the C kernel changes; deleting .venv also resets this.
# A .venv without pip (a first install interrupted while creating it) is made again.
$(STAMP): pyproject.toml setup.py $(wildcard solver/engine/_kernel.c)
	$(PY) -m pip --version >/dev/null 2>&1 || python3 -m venv --clear .venv
	$(PY) -m pip install --upgrade pip setuptools wheel
	$(PY) -m pip install -e '.[dev]'
	touch $@

# HOST=0.0.0.0 listens on every interface (add the machine's name to ALLOWED_HOSTS then).
HOST ?= 127.0.0.1
PORT ?= 8000
run: install ## migrate, load the dictionaries and serve http://HOST:PORT (127.0.0.1:8000)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_dictionaries
	$(PY) manage.py preset_standings
	$(PY) manage.py arena_default
	$(PY) manage.py runserver $(HOST):$(PORT)

# pytest exits 5 when it collects nothing: a suite that ran no test has not passed.
# The suite runs in TEST_WORKERS processes (pytest-xdist), each on its own test database and
# Redis database (tests/conftest.py): most tests wait on servers, browsers and clocks (two
# processes kept about one core busy), so three finish far sooner even on two cores; an idle
# one takes tests queued for another (worksteal), so no slow file holds up the end.
# TEST_WORKERS=0 runs it in one.
TEST_WORKERS ?= 3
test: install ## run the test suite: the browser's pure logic (node --test), then pytest
	node --test --test-reporter=dot tests/js/
	@status=0; $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=25 $(PYTEST_ARGS) \
		|| status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; \
	exit $$status

lint: install ## ruff check, ruff format --check and the import contracts (lint-imports)
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/lint-imports

typecheck: install ## mypy with django-stubs on boggle_site, games and solver
	.venv/bin/mypy boggle_site games solver

check: lint typecheck test ## everything a reviewer runs: lint, typecheck and test

# Plays a round in Chromium against a throwaway server and saves docs/screenshots/*.png.
screenshots: install ## play a round in Chromium and save docs/screenshots/*.png
	$(PY) -m tests.browser.screenshots

# The figures quoted in issues and the README come from these; none of them is a pass/fail test.
bench: bench-solver bench-rooms ## both benchmarks below (figures, not pass/fail)

bench-solver: install ## the solver: kernel vs pure Python, dictionary load, 10×10 board
	$(PY) manage.py bench_solver

# Starts its own daphne worker on a free port; BENCH_ARGS="--url ws://HOST:PORT" for another.
bench-rooms: install ## 400 websocket clients in 50 rooms against one daphne worker
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_dictionaries
	$(PY) manage.py bench_rooms $(BENCH_ARGS)

# The daily board (docs/daily.md): a leaderboard of 100,000 attempts, 2,000 players starting
# the day's board within a minute on one daphne worker it starts, and what each step of an
# attempt costs that worker, one player at a time. Needs DATABASE_URL to name a
# PostgreSQL database; BENCH_DAILY_ARGS="--players 200 --over 10" runs a smaller one.
bench-daily: install ## daily board figures: leaderboard reads, 2,000 starts on one worker, step costs
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_dictionaries
	$(PY) manage.py preset_standings
	$(PY) manage.py bench_daily $(BENCH_DAILY_ARGS)

# The arena (docs/arena.md): 2,000 websocket players in one arena round on two daphne workers
# it starts, a word every 2 s each, then everyone's results. Needs DATABASE_URL to name a
# PostgreSQL database; BENCH_ARENA_ARGS="--players 500" runs a smaller one.
bench-arena: install ## arena figures: 2,000 players on two workers, results after time-up
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_dictionaries
	$(PY) manage.py preset_standings
	$(PY) manage.py bench_arena $(BENCH_ARENA_ARGS)

# Board lab figures (docs/board-lab.md): what a difficulty band adds to starting a round, the
# standings' computation time and the new16 / YAWL count of words no board can hold.
# Then the board search (docs/board-search.md): time to the best known boards, exact targets;
# BENCH_BOARDS_ARGS="--only free4 --seeds 3 --max-seconds 120" runs a part of it, shorter.
bench-boards: install ## board figures: band draws, standings, unreachable words, board search
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_dictionaries
	$(PY) manage.py bench_bands $(BENCH_ARGS)
	$(PY) manage.py bench_boards $(BENCH_BOARDS_ARGS)
bench-uploads: install ## large bodies: peak memory a 100 MiB POST, a 13 MiB word list and a 40 MiB definitions list add to a worker
	$(PY) manage.py migrate --noinput
	$(PY) manage.py bench_uploads $(BENCH_ARGS)

# The production layout on this machine: nginx on 127.0.0.1:8000 in front of gunicorn (:8001)
# and two daphne workers (:8002, :8003), and a sweep process, sharing PostgreSQL and Redis,
# with production settings over plain http, as docs/operations.md describes; ^C stops them.
# The first run creates the database CLUSTER_DATABASE_URL names, migrates it and loads the data.
CLUSTER_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/boggle
CLUSTER_REDIS_URL ?= redis://127.0.0.1:6379/0
CLUSTER_PORT ?= 8000
cluster: install ## the production layout here: nginx, gunicorn, two daphne workers (docs/operations.md)
	DEBUG=false HTTPS=false SECRET_KEY="$${SECRET_KEY:-local-cluster-only-not-a-secret}" \
		ALLOWED_HOSTS=127.0.0.1,localhost DATABASE_URL=$(CLUSTER_DATABASE_URL) \
		REDIS_URL=$(CLUSTER_REDIS_URL) $(PY) manage.py cluster --prepare --workers 2 \
		--port $(CLUSTER_PORT)

build: install ## rebuild the C kernel in place after editing it
	$(PY) setup.py build_ext --inplace

# Removing the stamp makes the next install rebuild the extension deleted here.
clean: ## remove build artefacts (the next install rebuilds the kernel)
	rm -rf build/ *.egg-info .mypy_cache .ruff_cache .pytest_cache $(STAMP)
	find . -path ./.venv -prune -o -name '*.so' -type f -print0 | xargs -0 rm -f
	find . -path ./.venv -prune -o -name __pycache__ -type d -print0 | xargs -0 rm -rf

distclean: clean ## clean, and remove .venv and var/ (the SQLite database, compiled lists)
	rm -rf .venv var/

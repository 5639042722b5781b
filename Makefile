# Two commands set up a fresh machine: `make html` (preview) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
BUILD  := _build
SPHINX := $(BIN)/sphinx-build -c . source
CLI    := $(BIN)/source-anchors

## oldest: the suite (browser test aside) on the oldest supported Sphinx, in .venv-oldest;
## the main venv pins the newest release on the index (requirements.txt)
OLDEST := sphinx==8.1.3 "docutils<0.22"
oldest:
	test -x .venv-oldest/bin/python || $(PYTHON) -m venv .venv-oldest
	.venv-oldest/bin/python -m pip install --quiet --disable-pip-version-check -e ".[licences,myst]" $(OLDEST) \
		pytest pytest-xdist hypothesis sphinx-design sphinx-book-theme jieba griffe
	.venv-oldest/bin/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not browser" -p no:cacheprovider

## catalogs: compile the extension's message catalogs (.po -> .mo)
catalogs: $(STAMP)
	$(BIN)/python tools/catalogs.py

.PHONY: oldest catalogs manual html pdf epub print-packages print-packages-list livehtml test test-pytest pytest lint book-strict check-anchors check-self-docs fix-self-docs self-docs-eval facts relock preview-bump bench differential drift-eval drift-instructions api-eval languages-demo reliability dist clean

## The venv's pip is the newest release, installed before the requirements (pip upgrades itself best
## alone): the extension runs it for every distribution it downloads, and the tests do about 20 times.
## Python 3.11's own (23.2.1) takes more CPU a command: `pip config list` 0.24 s against 0.14 s, a
## `pip download` from a local folder 0.41 s against 0.33 s. `make oldest` keeps its venv's own pip.
## The pin lives here, so the venv depends on this file too (a no-op reinstall takes about 3 s).
PIP_PIN := pip==26.3
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$(PIP_PIN)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

## html: the online preview in _build/html (drift shows as marked anchors, not failures)
html: $(STAMP)
	$(SPHINX) $(BUILD)/html

## pdf: the book as _build/code-reading-guide.pdf (Sphinx's LaTeX builder, strictly, then xelatex with xeCJK).
## Needs PRINT_PACKAGES (Debian); `make print-packages` installs them when missing (root or sudo).
PRINT_PACKAGES := texlive-xetex texlive-lang-chinese texlive-latex-recommended texlive-latex-extra \
	texlive-fonts-recommended tex-gyre fonts-freefont-otf fonts-noto-cjk fontconfig latexmk poppler-utils
PRINT_TOOLS := xelatex latexmk pdftotext
pdf: $(STAMP)
	@for tool in $(PRINT_TOOLS); do command -v $$tool >/dev/null || \
	  { echo "$$tool not found: run make print-packages (apt-get install $(PRINT_PACKAGES))"; exit 1; }; done
	$(SPHINX) -b latex -nW --keep-going -d $(BUILD)/doctrees-latex $(BUILD)/latex
	$(MAKE) -C $(BUILD)/latex LATEXMKOPTS=-silent LATEXOPTS="-interaction=nonstopmode -halt-on-error"
	cp $(BUILD)/latex/code-reading-guide.pdf $(BUILD)/code-reading-guide.pdf
	@echo "PDF: $(BUILD)/code-reading-guide.pdf"

## epub: the book as _build/code-reading-guide.epub (no warnings allowed). The EPUB packs every file
## of its output directory, so that starts empty.
epub: $(STAMP)
	rm -rf $(BUILD)/epub
	$(SPHINX) -b epub -nW --keep-going -d $(BUILD)/doctrees-epub $(BUILD)/epub
	cp $(BUILD)/epub/code-reading-guide.epub $(BUILD)/code-reading-guide.epub
	@echo "EPUB: $(BUILD)/code-reading-guide.epub"

## print-packages: the Debian packages of `make pdf` and the print test, installed only when a tool
## or the Noto CJK font is missing (apt-get as root, else through sudo); .ci/run does the same
print-packages:
	@missing=; for tool in $(PRINT_TOOLS) fc-list; do command -v $$tool >/dev/null || missing=1; done; \
	test -n "$$missing" || fc-list : family | grep -q "Noto Serif CJK SC" || missing=1; \
	if [ -z "$$missing" ]; then echo "print packages present"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "cannot install $(PRINT_PACKAGES) (not root, no sudo)"; exit 1; fi; \
	$$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $(PRINT_PACKAGES) >/dev/null

print-packages-list:
	@echo $(PRINT_PACKAGES)

## livehtml: rebuild the preview on every save (anchors come from the caches)
livehtml: $(STAMP)
	$(BIN)/sphinx-autobuild -c . source $(BUILD)/html --watch ext --watch conf.py --watch source-anchors.lock

## test: lint, pytest, the strict manual build and the self-docs check, side by side: pytest's workers
## leave a core idle while they wait on the network, git and Chromium, and the others fill it. The strict book build
## from a cold anchor cache (locked, as `make book-strict`) is a test of pytest's (tests/test_book.py),
## built once and opened by the browser tests too. pytest's output streams (test-pytest: a sub-make
## that holds nothing); each other part's is printed whole when it ends (make -O). Any part failing
## fails the target, after the others have finished.
TEST_PARTS := test-pytest lint manual check-self-docs
test: $(STAMP)
	@echo "make test: pytest (with the strict book build), lint, manual and check-self-docs run side by side; the last three print when they end"
	$(MAKE) --no-print-directory -j$(words $(TEST_PARTS)) --output-sync=target $(TEST_PARTS)

test-pytest:
	$(MAKE) --no-print-directory --output-sync=none pytest

## manual: the extension's English manual (docs/), built strictly into _build/manual
manual: $(STAMP)
	$(BIN)/sphinx-build -nW --keep-going -q -E docs $(BUILD)/manual

## pytest: every test; the reliability suite in its bounded form; the browser test if Chromium is here,
## the PDF test if xelatex is (tests/test_print.py, about 5 s).
## Test files are spread over PYTEST_WORKERS processes (pytest-xdist; one file stays in one process;
## the longest files first, tests/conftest.py): one more than the cores this process may use, since a
## worker often waits on a subprocess, the package index or Chromium (2 cores: 3 workers took 79.3-82.5 s
## against 82.9-90.2 s for 2, run by turns).
## Plugins are named, not loaded from every installed package: pytest rewrites the asserts of each
## package that offers a plugin, in every process (all of hypothesis: 0.75 s a process where byte
## code is not written). The suite uses xdist and hypothesis's plugin; anyio's and platformdirs' not.
## Byte code is written even where PYTHONDONTWRITEBYTECODE is set (the tests' subprocesses do the same,
## helpers.build_env): pytest keeps its assert-rewritten test modules in tests/__pycache__ (git-ignored),
## and each worker of a later run reads them instead of rewriting all (1.83 s against 0.94 s to collect).
## Temporary files (every tmp_path: the tests' git repositories, anchor caches and builds) go to a RAM
## file system where /dev/shm is one: git, the atomic writes and the builds create and delete many small
## files, and on a virtual disk their journal costs CPU. On this machine (/tmp is ext4 on virtio) five
## test files took 25.7-26.9 s of CPU there against 20.5-21.3 s on tmpfs, system time halved. A killed
## process leaves the same files on either. `make pytest TEST_TMPDIR=` keeps the default folder. A run
## writes about 260 MB and pytest keeps the last three runs' folders: /dev/shm is used only with 2 GiB
## free (Docker's default is 64 MB).
TEST_TMPDIR ?= $(shell test "$$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs && test -w /dev/shm && \
	test "$$(df -Pk /dev/shm | awk 'NR == 2 {print $$4}')" -ge 2097152 && echo /dev/shm)
PYTEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(len(os.sched_getaffinity(0)) + 1 if hasattr(os, 'sched_getaffinity') else (os.cpu_count() or 1) + 1)")
PYTEST_PLUGINS := -p xdist.plugin -p xdist.looponfail -p _hypothesis_pytestplugin
pytest: $(STAMP)
	@test -x /usr/bin/chromium || echo "NOTE: /usr/bin/chromium not found: the browser test will be skipped (apt-get install chromium)"
	@command -v xelatex >/dev/null && command -v pdftotext >/dev/null || echo "NOTE: xelatex or pdftotext not found: the PDF test will be skipped (make print-packages)"
	env -u PYTHONDONTWRITEBYTECODE $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR)) PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \
		$(BIN)/python -m pytest $(PYTEST_PLUGINS) \
		-n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder

## lint: ruff's formatter (100 columns) and linter, the message catalogs, mypy, and the import contracts of pyproject.toml (lint-imports:
## the stages import only downward, the core never imports Sphinx, no import cycle; docs/architecture.md)
lint: $(STAMP)
	$(BIN)/ruff format --check --quiet ext tests bench tools conf.py
	$(BIN)/ruff check ext tests bench tools conf.py
	$(BIN)/python tools/catalogs.py --check
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

book-strict: $(STAMP)
	rm -rf $(BUILD)/strict $(BUILD)/strict-cache
	CI=true SOURCE_ANCHORS_CACHE=$(BUILD)/strict-cache $(SPHINX) -nW --keep-going -E $(BUILD)/strict

## check-anchors: report every anchor's status against the lock (non-zero on drift)
check-anchors: $(STAMP)
	$(CLI) check

## check-self-docs: the line links of README.md, CONTRIBUTING.md and docs/architecture.md into the
## extension's code, against their own lock (the plain-Markdown front end; --lock routes to it beside
## the book's conf.py); exit 1 when a cited symbol moved, changed or is missing at HEAD (about 2 s).
## fix-self-docs: relock every link by its title's target, then rewrite moved links to their lines.
SELF_DOCS      := README.md CONTRIBUTING.md docs/architecture.md
SELF_DOCS_LOCK := docs/self-docs.lock
check-self-docs: $(STAMP)
	$(CLI) check --lock $(SELF_DOCS_LOCK) $(SELF_DOCS)

fix-self-docs: $(STAMP)
	$(CLI) update --lock $(SELF_DOCS_LOCK) $(SELF_DOCS)
	$(CLI) fix --write --lock $(SELF_DOCS_LOCK) $(SELF_DOCS)

## facts: rewrite each pin's committed facts record (licences and third-party evidence of files the
## distribution lacks); needs git to reach the pinned repository
facts: $(STAMP)
	$(CLI) facts

## relock: re-resolve every anchor and rewrite source-anchors.lock
relock: $(STAMP)
	$(CLI) update

## preview-bump PIN=name=ref: what every anchor would become at another commit, tag or branch
preview-bump: $(STAMP)
	$(CLI) check --pin $(PIN) --markdown

## bench: performance figures into _build/bench/results.json (downloads django from PyPI)
bench: $(STAMP)
	$(BIN)/python bench/run.py

## drift-eval: real bumps (click 8.1.7 -> 8.3.0, django 5.1.15 -> 5.2.19 from PyPI; gpt-researcher
## e65dfde6 -> v3.6.0 when SOURCE_ANCHORS_GPT_RESEARCHER_GIT names a copy of its repository): statuses,
## change classes, suggestions, hand-checked precision and recall, ms per anchor of a cold resolution
## (empty cache) and of check --pin at the new commit (_build/drift/results.json)
drift-eval: $(STAMP)
	$(BIN)/python bench/drift_eval.py

## self-docs-eval: gpt-researcher's own Markdown at v3.3.0 with 54 line links to the code it names
## (titled and plain), checked at v3.6.0 against hand-checked verdicts (bench/self_docs_eval.json):
## precision and recall of check, fix --write's lines; needs SOURCE_ANCHORS_GPT_RESEARCHER_GIT, a copy
## of its repository (skipped otherwise); about 2 minutes (_build/self-docs-eval/results.json)
self-docs-eval: $(STAMP)
	$(BIN)/python bench/self_docs_eval.py

## drift-instructions: the django bump's check --pin against a cold resolution in instructions
## (callgrind, git's included; about 10 minutes), unmoved by other work on the machine
## (_build/drift/instructions.json)
drift-instructions: $(STAMP)
	$(BIN)/python bench/drift_instructions.py

## differential: resolver ranges against ranges computed with ast, over real packages from PyPI
## (django, sqlalchemy, sphinx, pydantic, numpy, setuptools; flask, werkzeug, httpx, requests and
## jinja2 for properties with setters and subclasses that assign them)
## (downloads the wheels; _build/differential/results.json)
differential: $(STAMP)
	$(BIN)/python bench/differential.py django==5.2.19 sqlalchemy==2.0.41 sphinx==9.0.4 pydantic==2.11.7 \
		numpy==2.3.3 setuptools==80.9.0 flask==3.1.3 werkzeug==3.1.9 httpx==0.29.0 requests==2.34.2 \
		jinja2==3.1.6

## api-eval: API source links on real projects' own docs (itsdangerous, jinja2, werkzeug, flask, click sdists
## from PyPI, each built with its own conf.py and theme plus the extension): objects described, linked, not
## linked by reason, links that differ from an ast oracle (target 0), and beside them a numpy-style
## importing linkcode_resolve and viewcode on the same objects; then six compiled projects (bitarray,
## msgpack, pyyaml, frozenlist, contourpy, rpds-py sdists, generated py: pages) against hand-labelled lines
## (bench/compiled_eval_facts.json): share linked, precision (_build/api-eval/results.json)
api-eval: $(STAMP)
	$(BIN)/python bench/api_eval.py

## languages-demo: a page with anchors into TSX, Go, Rust and C (tests/roots/test-languages), built to
## HTML and to PDF (xelatex; the print packages and Debian's chromium needed), with a screenshot of the
## HTML page (chromium --headless --screenshot) and the PDF's pages as PNG (pdftoppm -png -r 80) in
## _build/languages-demo
languages-demo: $(STAMP)
	$(BIN)/python tests/language_page.py $(BUILD)/languages-demo

## reliability: the full reliability suite; figures into _build/reliability/results.json
reliability: $(STAMP)
	RELIABILITY_SCALE=full $(BIN)/python -m pytest -q tests/reliability

## dist: the sdist and the wheel into dist/, as a release is built (build isolation, setuptools from
## the index, the wheel made from the sdist), then `twine check --strict` (the metadata, and the README
## as PyPI renders it). Before the first release a user installs that wheel (docs/install.md).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .  # the sdist, then the wheel built from it
	$(BIN)/twine check --strict dist/*

clean:
	rm -rf $(BUILD)

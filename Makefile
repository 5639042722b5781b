# Two commands set up a fresh machine: `make html` (preview) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
BUILD  := _build
SPHINX := $(BIN)/sphinx-build -c . source
CLI    := PYTHONPATH=ext $(BIN)/python -m source_anchors

.PHONY: html test pytest lint book-strict check-anchors relock preview-bump clean

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

## html: the online preview in _build/html (drift shows as marked anchors, not failures)
html: $(STAMP)
	$(SPHINX) $(BUILD)/html

## test: lint, pytest, then the strict book build from a cold anchor cache, locked
test: $(STAMP)
	$(MAKE) lint
	$(MAKE) pytest
	$(MAKE) book-strict

pytest: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check ext tests conf.py
	$(BIN)/mypy

book-strict: $(STAMP)
	rm -rf $(BUILD)/strict $(BUILD)/strict-cache
	CI=true SOURCE_ANCHORS_CACHE=$(BUILD)/strict-cache $(SPHINX) -nW --keep-going -E $(BUILD)/strict

## check-anchors: report every anchor's status against the lock (non-zero on drift)
check-anchors: $(STAMP)
	$(CLI) check

## relock: re-resolve every anchor and rewrite source-anchors.lock
relock: $(STAMP)
	$(CLI) update

## preview-bump PIN=name=sha: what every anchor would become at another commit
preview-bump: $(STAMP)
	$(CLI) check --pin $(PIN) --markdown

clean:
	rm -rf $(BUILD)

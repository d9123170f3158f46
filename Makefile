# The two commands a newcomer needs:  `make run`  and  `make test`.
# Both create a local virtual environment in .venv and install what they need first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench gallery messages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/playouts.py
	$(BIN)/python benchmarks/render.py
	$(BIN)/python benchmarks/manager.py
	$(BIN)/python benchmarks/bot.py
	$(BIN)/python benchmarks/ai.py --quick
	$(BIN)/python benchmarks/scale.py --quick

# Extract every message id of the texts layer into bot/texts/locale/stonecast.pot (issue 22),
# and the slash commands' words the cogs mark with discord's locale_str (imported as _T).
messages: $(STAMP)
	$(BIN)/pybabel extract --no-location --sort-output -k _ -k N_ -k ngettext:1,2 -k _T -k locale_str \
		-o bot/texts/locale/stonecast.pot bot/texts bot/front/cogs

gallery: $(STAMP)
	$(BIN)/python -m renderers.gallery gallery

clean:
	rm -rf $(VENV) .pytest_cache

# Stonecast: a Discord bot for correspondence play of five abstract games.
#   docker build -t stonecast .
#   docker run -d --name stonecast -e DISCORD_TOKEN=... -v stonecast-data:/data stonecast
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STONECAST_DB=/data/stonecast.db

# A fallback font for players' names in scripts Roboto lacks (renderers/fonts.py): DejaVu Sans
# (Arabic, Hebrew, Armenian, Georgian...; ~3 MB); without it names in those scripts are
# transliterated. Chinese, Japanese and Korean come from a Python dependency (Noto Sans CJK,
# installed by `pip install .` below like on every other install).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 stonecast \
    && mkdir /data && chown stonecast:stonecast /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY ai ./ai
COPY renderers ./renderers
COPY bot ./bot
RUN pip install . && rm -rf /app/build
# The translations compiled once, here: bot/texts/i18n.py keeps each catalog's .mo beside its
# .po, where the stonecast user below may not write (it would parse every .po at each start).
RUN python -c "from bot.texts import i18n; [i18n.translations(lang) for lang in i18n.SUPPORTED]"

USER stonecast
VOLUME ["/data"]
CMD ["python", "-m", "bot"]

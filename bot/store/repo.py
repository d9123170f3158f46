"""The base of every repository: a small class over one :class:`~bot.store.db.Store`.

A repository's methods run their statements through the store, so they join the transaction
the calling task has open (``async with store.transaction():``) and otherwise run alone.
Rows come back as :class:`Row`; turning them into values is the manager's business.
"""

from __future__ import annotations

from .db import Store

__all__ = ["Repo"]


class Repo:
    """Statements about one thing the database holds, over ``store``."""

    def __init__(self, store: Store):
        self.store = store

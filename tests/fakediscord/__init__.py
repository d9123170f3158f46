"""A fake Discord REST API and gateway on 127.0.0.1 for end-to-end tests of the real client."""

from .server import (
    PNG_SIGNATURE,
    Exchange,
    FakeDiscord,
    FakeHTTPError,
    FakeUser,
    Msg,
    snowflake,
)

__all__ = ["PNG_SIGNATURE", "Exchange", "FakeDiscord", "FakeHTTPError", "FakeUser", "Msg", "snowflake"]

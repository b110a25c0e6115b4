"""Run a coroutine from a synchronous test, whatever the calling thread holds.

Playwright's synchronous API leaves an event loop running in the thread that used it, and
``async_to_sync`` refuses to run there. Where no loop runs, ``async_to_sync`` is used, so
database calls inside stay on this thread's connection (and its test transaction); where one
runs, the coroutine gets a fresh thread and loop (use it with ``transaction=True`` tests).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from asgiref.sync import async_to_sync

T = TypeVar("T")


def run_async(make: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await make()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return async_to_sync(main)()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()

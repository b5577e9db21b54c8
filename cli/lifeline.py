"""The local server of `cursed-bottle play` ends with the client that started it.

The server asks Linux for SIGTERM when its parent dies (PR_SET_PDEATHSIG),
itself, at start-up: the client cannot set it between fork and exec
(`preexec_fn`), because that makes subprocess fork a process that holds
gRPC's threads, and such a child can abort before it runs the server.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

#: prctl's option number (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> bool:
    """Ask for SIGTERM when process `parent` ends; False when it already has
    (this process now has another parent).  Elsewhere than Linux: nothing."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    return os.getppid() == parent

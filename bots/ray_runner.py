"""The simulation's jobs as Ray tasks: the same units on a cluster of machines.

Ray (the `cluster` extra) does the distributing, the scheduling and the
retrying; this module only hands it batches of jobs and takes back what
finishes.  It is the one module of the package that imports ray, and only
when called.  A task whose worker or node is lost is run again by Ray
(`max_retries`); units are seeded by their number, so a retried unit plays
the same hands.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .simulation import Finished, Job, TableSpec, chunks, run_jobs

#: How often Ray runs a task again whose worker process or node died.
RETRIES = 5
#: Ray's switch (read when ray is imported) that keeps a Ray on the loopback
#: address: a local Ray started for one run is for this machine only.
LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _run_batch(specs: list[TableSpec], jobs: list[tuple[int, int]]) -> tuple[str, list]:
    """On a Ray worker: the batch's jobs (spec index, unit) and the node's id."""
    import ray

    hands = run_jobs([(specs[s], unit) for s, unit in jobs])
    return ray.get_runtime_context().get_node_id(), hands


@dataclass
class RayRunner:
    """Runs jobs on Ray: a local Ray started for the run (`cpus`, None for all
    cores) or, with `address`, the cluster there (e.g. `127.0.0.1:6379`, or
    `auto` for the one this machine belongs to)."""

    address: str | None = None
    cpus: int | None = None
    #: Units run on each node (by Ray's node id), filled as batches finish.
    nodes: Counter = field(default_factory=Counter)

    def require(self) -> None:
        """ImportError now, before any work, if the `cluster` extra is missing."""
        if self.address is None:
            os.environ.setdefault(LOOPBACK_ONLY, "0")
        import ray  # noqa: F401

    def __call__(self, jobs: Sequence[Job]) -> Iterator[Finished]:
        self.require()
        import ray

        started = not ray.is_initialized()
        if started:
            ray.init(
                address=self.address,
                num_cpus=None if self.address else self.cpus,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
        try:
            # Ray prints its news (a worker lost, a task retried) on stdout, which
            # is the summary's: send it to stderr while Ray is ours.
            with contextlib.redirect_stdout(sys.stderr):
                yield from self._run(ray, jobs)
        finally:
            if started:
                ray.shutdown()

    def _run(self, ray, jobs: Sequence[Job]) -> Iterator[Finished]:
        specs = list(dict.fromkeys(spec for spec, _ in jobs))
        spec_index = {spec: i for i, spec in enumerate(specs)}
        specs_ref = ray.put(specs)
        task = ray.remote(num_cpus=1, max_retries=RETRIES, scheduling_strategy="SPREAD")(_run_batch)
        slots = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = {}
        for batch in chunks(len(jobs), slots):
            work = [(spec_index[jobs[i][0]], jobs[i][1]) for i in batch]
            pending[task.remote(specs_ref, work)] = batch
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    batch = pending.pop(ref)
                    node, hands = ray.get(ref)
                    self.nodes[node] += len(batch)
                    yield from zip(batch, hands, strict=True)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def report(self) -> str:
        """Where the units ran, for stderr: `ray: 40 units on 2 nodes (…)`."""
        total = sum(self.nodes.values())
        parts = ", ".join(f"{node[:8]}: {n}" for node, n in sorted(self.nodes.items()))
        return f"ray: {total} units on {len(self.nodes)} node(s) ({parts})"

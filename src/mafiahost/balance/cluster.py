"""The same batches on a Ray cluster (the optional extra ``mafiahost[cluster]``).

``ray_map`` submits ``run_batch`` tasks and yields their results in batch order, keeping at
most ``2 * width`` tasks in flight, so the stopping rule sees exactly what it sees on one
process. ``address`` is ``"local"`` (a Ray instance started here with ``workers`` CPUs, or every
core when ``workers`` is 1) or
the address of a running cluster (``ray://host:10001`` or ``host:6379``).
"""

from __future__ import annotations

import os

from ..engine.errors import Refused
from .simulate import Job, run_batch


def _ray():
    try:
        import ray
    except ImportError:
        raise Refused("Для --ray нужен Ray: pip install 'mafiahost[cluster]'.",
                      "--ray needs Ray: pip install 'mafiahost[cluster]'.") from None
    return ray


def connect(address: str, workers: int = 2):
    """Start (``local``) or join a Ray cluster once per process; returns the module."""
    ray = _ray()
    if not ray.is_initialized():
        if address == "local":
            cpus = workers if workers > 1 else (os.cpu_count() or 1)
            ray.init(num_cpus=cpus, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        else:
            try:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, ValueError, RuntimeError) as e:
                raise Refused(f"Не удалось подключиться к кластеру Ray «{address}».",
                              f"Could not connect to the Ray cluster '{address}': {e}.") \
                    from None
    return ray


def ray_map(job: Job, n: int, address: str, workers: int = 2):
    ray = connect(address, workers)
    task = ray.remote(run_batch)
    width = max(1, int(ray.cluster_resources().get("CPU", workers)))
    pending: list = []
    nxt = 0
    try:
        while nxt < n or pending:
            while nxt < n and len(pending) < 2 * width:
                pending.append(task.remote(job, nxt))
                nxt += 1
            yield ray.get(pending.pop(0))
    finally:
        for ref in pending:
            ray.cancel(ref)

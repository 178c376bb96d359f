"""Watching: who visited a target and whether the target went out."""

from __future__ import annotations

from . import mechanic


@mechanic("watch", counts_as_out=False, visits=False)
def watch(n, actor, targets, params):
    n.watchers.append((actor.name, targets[0].name))
    n.on_dawn(_report)


def _report(n):
    g = n.g
    for w, t in n.watchers:
        visitors = []
        for visible, tgt, real in n.visits:
            if tgt == t and real != w and visible not in visitors:
                visitors.append(visible)
        went = t in n.went_out
        g.emit("watch_result", (w,), to=w, target=t, visitors=visitors, went_out=went)

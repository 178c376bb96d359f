"""Mechanics next to their ruleset: ``<ruleset id>.py`` is imported when that ruleset loads.

Each module registers what only its game needs, with the decorators of
``mafiahost.engine.mechanics`` (``mechanic``, ``constraint``, ``scheduled``, ``hook``,
``condition``, ``tie_policy``). The same purity rules as the engine hold: no I/O, no clock,
no global random (use ``g.roll`` / ``g.chance``).
"""

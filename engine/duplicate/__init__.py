"""Duplicate sessions: boards every table plays alike, movements that take pairs from table to
table (:mod:`~engine.duplicate.movement`), matchpoints (:mod:`~engine.duplicate.matchpoints`)
and whole sessions played by bots (:mod:`~engine.duplicate.session`), on one process or the
task-queue workers (:mod:`~engine.duplicate.workers`).
"""

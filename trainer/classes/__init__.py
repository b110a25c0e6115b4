"""Teachers, classes and assignments: ``/classes/…``.

Writes live in :mod:`trainer.classes.services`, reads in :mod:`trainer.classes.selectors`; every
selector a view uses to find a class or an assignment is already filtered to the signed-in user,
so a guessed id gives 404, never someone else's data.
"""

"""Database models for the trainer.

The database stores users' data (attempts, schedules, classes, clubs) and the curated content
loaded from ``seeds/``; catalogues such as drill kinds, checklist items and conventions come from
the engine, not from rows here.
"""

from trainer.models.classes import Assignment, AssignmentDrill, ClassMembership, Classroom
from trainer.models.clubs import Club, ClubMembership
from trainer.models.drillsets import DrillSet, DrillSetEntry
from trainer.models.lessons import Lesson
from trainer.models.progress import KIND_CHOICES, RECENT_WINDOW, Attempt, SkillState

__all__ = [
    "KIND_CHOICES",
    "RECENT_WINDOW",
    "Assignment",
    "AssignmentDrill",
    "Attempt",
    "ClassMembership",
    "Classroom",
    "Club",
    "ClubMembership",
    "DrillSet",
    "DrillSetEntry",
    "Lesson",
    "SkillState",
]

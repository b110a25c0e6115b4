"""Path converters. ``<id:…>`` is ``<int:…>`` bounded to what the database can store.

An id above 2**63 - 1 (a 64-bit signed integer, the range of every id column) cannot match a
row; left to ``<int:…>`` it reaches the query and SQLite raises ``OverflowError`` (a 500).
With ``<id:…>`` such a URL does not resolve: a 404.
"""

from django.urls import register_converter

ID_MAX = 2**63 - 1


class BoundedIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError(f"{value} is out of range")  # the URL does not match: 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(BoundedIdConverter, "id")

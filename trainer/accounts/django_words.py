"""Django's own words that the site says in its own style.

Django's catalogs give every project the same Japanese; a few of its strings do not follow the
site's style (docs/i18n.md): an ASCII colon after a form label (``ユーザー名:``), brackets and
spaces of Western typography (``パスワード(確認用)``, ``最低 8 文字``), and two wordings of
one message (the username's help says ``この項目は必須です`` while the error says
``このフィールドは必須です``). Naming the msgids here puts them in the project's catalog
(``make messages`` finds them), and the project's catalog is read before Django's
(``LOCALE_PATHS``). Each msgid must be Django's, character for character:
``tests/trainer/i18n/test_style.py`` checks that Django still has every one of them.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_WORDS = (
    # django.forms: the label suffix, a list separator (timesince: "1日、8時間"), required.
    gettext_noop(":"),
    gettext_noop(", "),
    gettext_noop("This field is required."),
    # django.contrib.auth: the username's help, password fields and checks, login errors.
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Password confirmation"),
    gettext_noop("New password confirmation"),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "n",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
)

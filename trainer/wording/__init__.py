"""Engine messages in words: ``engine.messages`` values rendered through gettext catalogs."""

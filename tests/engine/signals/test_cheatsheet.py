def test_an_item_without_a_signal_says_so_on_the_sheet():
    from engine.signals import cheatsheet, get_convention

    lines = [r for r in cheatsheet(get_convention("teach-yourself-1994")).rows if r.item == "fours"]
    assert len(lines) == 1 and lines[0].rank_relation == "no signal"
    assert "play it out at once" in lines[0].cards and "later" not in lines[0].cards

"""The round screen: the screen, its board and panel, the hero panel, card taps, phones."""

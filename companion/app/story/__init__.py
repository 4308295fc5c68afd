"""One story per command, told the same everywhere: what a step led to, in the words of its
cards (the touchscreen's game log and the phones' are made here; the move of announce, cards,
hero panel and spoken words here is issue 39's)."""

"""Where figures and names go on the board: geometry, text widths, targets, threats
(no words, no Kivy)."""

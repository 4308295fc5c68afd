"""The table's devices on the Pi side: what reaches outside the process (here the Wi-Fi, through
NetworkManager); every thread of the app layer starts in this package (the move of the nodes,
LEDs, Pi controls, voice and table watch here is issue 39's)."""

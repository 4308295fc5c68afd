"""Stand-ins on PATH for what cannot run here (mpremote, nmcli, espeak-ng, systemctl …),
network namespaces, floods."""

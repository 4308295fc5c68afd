"""What the tests share: tables, games, processes, browsers, the sweeps' plan."""

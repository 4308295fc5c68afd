"""Table service: applies commands to a stored game and tells observers what happened."""

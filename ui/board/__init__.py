"""The fortress as the touchscreen draws it: the view (painting, touch), where names and
figures go."""

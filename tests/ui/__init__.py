"""The touchscreen app under Xvfb."""

"""The Armata Strigoi table companion: engine, app service, store and tools."""

from companion.native import guard

guard()  # before any engine module loads: a compiled engine older than its sources is ignored

"""The players' files (transcripts, scenarios), the component catalog, the rules text, the docs'
examples, the command line."""

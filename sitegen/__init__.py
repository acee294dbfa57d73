"""Build steps for the gin rummy site: engine wheel, Pyodide runtime, MkDocs, dev server."""


class BuildError(Exception):
    """A build step failed. The message is one line that says how to fix it."""

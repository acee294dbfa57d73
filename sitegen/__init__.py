"""Build steps for the gin rummy site: engine wheel, Pyodide runtime, MkDocs, dev server."""


class BuildError(Exception):
    """A build step failed. The message is one line that says how to fix it: whatever it
    quotes from a file, it is made one line and cut to ``MAX_LENGTH`` characters."""

    MAX_LENGTH = 300

    def __init__(self, message: str = ""):
        line = " ".join(str(message).split())
        if len(line) > self.MAX_LENGTH:
            line = line[: self.MAX_LENGTH - 1] + "…"
        super().__init__(line)

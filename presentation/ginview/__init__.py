"""ginview: how the gin rummy site shows the game, in any of its languages.

The one presentation layer of the site. It turns an example's or a lesson step's state into
its complete markup, from the catalogs, and it runs in two places: in CPython when the site is
built (every example is drawn into its page) and, unchanged, in Pyodide in the reader's
browser (an edited example is drawn again by the worker). It depends on the engine only.

- :mod:`ginview.examples`: the kinds of live example (``KINDS``): fields, engine request,
  markup, edits and share links.
- :mod:`ginview.steps`: the kinds of lesson step (``STEPS``): fields, replay, check, markup
  and feedback.
- :mod:`ginview.fields`: the field types, which make every input canonical.
- :mod:`ginview.shapes`: the shapes of an example's state, a lesson step, a sheet's entry and
  the engine's JSON answers.
- :mod:`ginview.markup`: cards, melds, explanation steps, rule lines, errors.
- :mod:`ginview.catalog`: the messages of each language.
- :mod:`ginview.page`: what a page with examples needs once (the card picker, the status texts).
- :mod:`ginview.api`: the JSON boundary the worker calls.
"""

__version__ = "0.1.0"

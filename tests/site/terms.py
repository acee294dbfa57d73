"""The reviewed terms the site's text must use, and the words it must never use (from the
machine-translated seeds and literal translations: ../shared/rules-reference.md). Read by the
catalog test (tests/site/test_catalogs.py) and the pages' test (tests/site/test_content.py)."""

SUIT_NAMES = {
    "en": ("spades", "hearts", "diamonds", "clubs"),
    "ro": ("pică", "cupă", "caro", "treflă"),
    "hu": ("pikk", "kőr", "káró", "treff"),
    "it": ("picche", "cuori", "quadri", "fiori"),
}
"""The suits, in the order S, H, D, C."""

FORBIDDEN = {
    "en": (),
    "ro": (
        "vârfuri",
        "viermi",
        "tamburine",
        "cluburi",
        "ochelari",
        "hărți",
        "carduri",
        "cartelă",
        "magazin",
        "furnizor",
        "expeditor",
        "nepereche",
        "genia",
        "regină",
        "jack",
    ),
    # literal suit translations; "box-bónusz" is written as one word, like "ginbónusz"
    "hu": ("pikkek", "szívek", "gyémánt", "ütők", "box-bónusz"),
    # Italian players say "parità" for equal counts, and "foglio segnapunti"
    "it": (
        "spade",
        "cuori rossi",
        "diamanti",
        "bastoni",
        "regina",
        "jack",
        "pareggio",
        "foglio dei punti",
        "fogli dei punti",
    ),
}

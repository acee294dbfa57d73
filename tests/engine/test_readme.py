"""The README's engine examples run and give what they say."""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples():
    blocks = [
        part.split("```")[0] for part in README.read_text(encoding="utf-8").split("```python")[1:]
    ]
    assert blocks
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        runner.run(
            doctest.DocTestParser().get_doctest(block, {}, f"README block {number}", str(README), 0)
        )
    results = runner.summarize(verbose=False)
    assert results.attempted > 0 and results.failed == 0

"""The one rule of what a fenced code block is (``tests/_markdown.py``), shared by the command runner
(``tests/test_docs.py``) and the link checker (``tests/test_doc_links.py``)."""

from __future__ import annotations

from pathlib import Path

from _markdown import fenced_blocks, prose
from test_doc_links import links
from test_docs import commands

PAGE = """# Title

```sh
python -m engine learn sample_data/a.csv
```

~~~text
```
[inside tildes](a.md)
~~~

````markdown
```sh
python -m engine learn sample_data/b.csv
```
````

- an item:

  ```sh
  python -m engine learn sample_data/c.csv
  ```sh
  python -m engine learn sample_data/d.csv
  ```

``inline ``` code`` and [after](b.md)

```
[never closed](c.md)
"""


def test_blocks_follow_commonmark_fences():
    blocks = fenced_blocks(PAGE)
    assert [(b.opening, b.closing, b.info) for b in blocks] == [
        (3, 5, "sh"),
        (7, 10, "text"),  # a ``` inside ~~~ does not close it
        (12, 16, "markdown"),  # nor a shorter fence inside a longer one
        (20, 24, "sh"),  # indented in a list item; "```sh" is an opening, not a closing
        (28, None, ""),  # never closed: to the end of the page
    ]
    assert blocks[0].lines == ["python -m engine learn sample_data/a.csv"] and blocks[0].first_line == 4
    assert blocks[3].lines[-1].strip() == "python -m engine learn sample_data/d.csv"


def test_prose_blanks_exactly_the_blocks():
    kept = prose(PAGE).splitlines()
    in_blocks = {n for b in fenced_blocks(PAGE) for n in range(b.opening, (b.closing or len(kept)) + 1)}
    assert len(kept) == len(PAGE.splitlines())
    for n, line in enumerate(PAGE.splitlines(), start=1):
        assert kept[n - 1] == ("" if n in in_blocks else line), n


def test_both_doc_tests_see_the_same_blocks():
    """The runner finds the commands of every block (the one inside a longer fence too, as a Markdown
    example shows it); the link checker sees only the links outside them."""
    found, _ = commands(Path("page.md"), PAGE)
    assert [c.argv[1] for c in found] == [f"sample_data/{x}.csv" for x in "abcd"]
    assert [target for _, target in links(PAGE)] == ["b.md"]

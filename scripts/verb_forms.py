#!/usr/bin/env python3
"""Writes crates/novel-core/src/evaluate/verb_forms.tsv, the general verb lexicon the checks'
tense reading falls back on, from LemmInflect's inflection table (MIT licence).

    pip download lemminflect==0.2.3 --no-deps -d /tmp/lemm && cd /tmp/lemm && unzip -o -q *.whl
    python3 scripts/verb_forms.py /tmp/lemm

Each line: base, simple past forms, present third-person forms, and two flags. `n`: a
third-person form is also a noun, adjective or adverb ("hands", "lurches"), so the checks never
read it as a present from this table (the hand list in `verbs.rs` asks such words for a verb's
company). `a`: a past form is also one ("tired", "crew", "ground"), so the checks never read it
as a past from this table.
"""
import gzip
import os
import re
import sys

HEADER = """# Verb forms for the checks' tense reading: base, simple past, present third person, flags.
# Written by scripts/verb_forms.py from LemmInflect 0.2.3 (resources/infl_lu.csv.gz).
# LemmInflect: Copyright (C) 2019 Brad Jascob. The MIT License (MIT):
# Permission is hereby granted, free of charge, to any person obtaining a copy of this software
# and associated documentation files (the "Software"), to deal in the Software without
# restriction, including without limitation the rights to use, copy, modify, merge, publish,
# distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
# Software is furnished to do so, subject to the following conditions:
# The above copyright notice and this permission notice shall be included in all copies or
# substantial portions of the Software.
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
# BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
# NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
# DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
"""

WORD = re.compile(r"[a-z]+")


def main(unpacked: str) -> None:
    table = os.path.join(unpacked, "lemminflect", "resources", "infl_lu.csv.gz")
    rows = [line.rstrip("\n").split(",") for line in gzip.open(table, "rt")]
    # Every word the table also knows as a noun (lemma or plural), adjective or adverb.
    other = set()
    for lemma, pos, *forms in rows:
        if pos in ("noun", "adj", "adv"):
            other.add(lemma.lower())
        if pos == "noun":
            other.update(f.lower() for group in forms for f in group.split("/") if f)
    lines = []
    for lemma, pos, *forms in rows:
        if pos != "verb" or not re.fullmatch(r"[a-z]{2,}", lemma):
            continue
        past, _participle, _ing, third = forms
        pasts = [p for p in past.split("/") if WORD.fullmatch(p)]
        thirds = [t for t in third.split("/") if WORD.fullmatch(t)]
        if not pasts or not thirds:
            continue
        flags = ("n" if any(t in other for t in thirds) else "-") + (
            "a" if any(p in other for p in pasts) else "-")
        lines.append("\t".join([lemma, "/".join(pasts), "/".join(thirds), flags]))
    out = os.path.join(os.path.dirname(__file__), "..", "crates", "novel-core", "src",
                       "evaluate", "verb_forms.tsv")
    with open(out, "w") as f:
        f.write(HEADER + "\n".join(lines) + "\n")
    print(f"wrote {out}: {len(lines)} verbs")


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
"""docs_links_test.py ROOT: every relative link and image of README.md and docs/**/*.md names a file of the
repository, and every #anchor a heading of its page (GitHub's anchors: lower case, punctuation dropped, spaces to
hyphens; so "What the counters do with cp.async" is #what-the-counters-do-with-cpasync)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]).resolve()
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def anchors(page):
    out, seen = set(), {}
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else HEADING.match(line)
        if not m:
            continue
        text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda g: g.group(1) or "", m.group(1))
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


problems = []
pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
for page in pages:
    in_code = False
    for number, line in enumerate(page.read_text().splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(root)}:{number}: {target}"
            if not file.exists():
                problems.append(f"{where}: no such file")
            elif root not in file.parents and file != root:
                problems.append(f"{where}: outside the repository")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                problems.append(f"{where}: no heading with anchor #{anchor} in {file.relative_to(root)}")
for problem in problems:
    print(problem)
print(f"{len(pages)} pages checked, {len(problems)} broken link(s)")
sys.exit(1 if problems else 0)

#!/usr/bin/env bash
# The walk-through of docs/self-docs.md ("From a README to CI"), run for real: every command the page
# shows, in a scratch repository with fixed authors and dates (so the commit ids are the page's), and
# what each printed. Usage: tools/self_docs_walkthrough.sh [SOURCE_ANCHORS] (default: source-anchors
# on PATH). Compare its output with the page after a change to the Markdown front end's messages.
set -uo pipefail
SA=${1:-source-anchors}
case $SA in */*) SA=$(cd "$(dirname "$SA")" && pwd)/$(basename "$SA") ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=author GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME=author GIT_COMMITTER_EMAIL=author@example.com
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
export SOURCE_ANCHORS_CACHE_DIR="$work/cache" NO_COLOR=1
cd "$work" && mkdir greeter-repo && cd greeter-repo || exit 1
git init -q -b main && git remote add origin git@github.com:acme/greeter.git
mkdir greeter && : > greeter/__init__.py
cat > greeter/core.py <<'PY'
"""Greetings."""


def greet(name):
    """The greeting."""
    return f"hello {name}"


def shout(name):
    """The greeting, loud."""
    return greet(name).upper()
PY
git add -A && git commit -qm "greeter"
first=$(git rev-parse HEAD)
cat > README.md <<MD
# greeter

[\`greet\`](greeter/core.py#L4-L6) builds the greeting;
[\`shout\`](greeter/core.py#L9-L11 "src: greeter.core.shout") shouts it.
The first release's version: [greet at ${first:0:7}](https://github.com/acme/greeter/blob/$first/greeter/core.py#L4-L6).
MD
git add -A && git commit -qm "readme"
say() { printf '$ %s\n' "$*"; "$@" 2>&1; }
echo "== README"; cat README.md
echo "== lock"
say $SA update README.md
git add source-anchors.lock && git commit -qm lock && echo '$ git add source-anchors.lock && git commit -m lock'
say $SA check README.md
cat source-anchors.lock
echo "== a constant above greet"
sed -i '1a\\nPUNCTUATION = "!"' greeter/core.py && git commit -qam "punctuation"
say $SA check README.md
say $SA fix --write README.md
say $SA fix --write --to HEAD README.md
say git diff --stat
say $SA check README.md
git commit -qam "links follow"
echo "== greet's body changes"
sed -i 's/return f"hello {name}"/return f"hello {name}{PUNCTUATION}"/' greeter/core.py && git commit -qam "punctuated"
say $SA check README.md
say $SA check --format github README.md
say $SA update README.md
say git diff source-anchors.lock
git commit -qam relock
echo "== the hook, by hand"
sed -i '/^PUNCTUATION/a QUIET = False' greeter/core.py
echo '$ git add greeter/core.py       # a constant added above greet'; git add greeter/core.py
say $SA check --staged greeter/core.py
say $SA fix --write --staged greeter/core.py
echo '$ git add README.md source-anchors.lock'; git add README.md source-anchors.lock
say $SA check --staged
git commit -qm quiet
echo "== init-ci"
say $SA init-ci github --output .github/workflows/source-anchors.yml

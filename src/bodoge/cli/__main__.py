"""`python -m bodoge.cli`: the `bodoge` command."""

from bodoge.cli import main

main()

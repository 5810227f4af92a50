"""One package per game, each of the shape docs/adding-a-game.md describes, registered by an entry
point in the group `bodoge.games` (pyproject.toml). `bodoge.games()` lists them.

Import a game's modules by their full names (`from bodoge.games.troika import rules`): the attribute
`bodoge.games` is that function, not this package.
"""

"""One package per game. Each exports `GAME`, its `bodoge.core.Game` subclass, and is found by that.

DESIGN.md names both `bodoge.games()` (the list of games) and `bodoge.games.troika` (a game's
package), so this package is itself callable: calling it lists the registered games.
"""

import sys
import types


class _CallableGamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from bodoge.core.registry import games

        return games()


sys.modules[__name__].__class__ = _CallableGamesPackage

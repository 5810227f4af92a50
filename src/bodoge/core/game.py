"""The game protocol (DESIGN.md §2): `Game` holds the rules and options, `State` one position.

A game subclasses both. The base classes own what is the same for every game — option checking,
seeded chance, legality checks on `apply`, action texts and parsing, records, the common part of
views, the kept log — so that a game's `rules.py` holds only its rules:

- `Game`: `name`, `title`, `rules_version` (and `replays_versions`), `min_players`/`max_players`, `option_specs`,
  `state_class`, `num_actions`, `prepare()`, `max_game_length()`;
- `State`: `setup()`, `_legal_actions()`, `_apply(a)`, `action_text(a)`, `scores()`, `winners()`,
  `check_invariants()`, `_copy_mutables(other)` (for `clone`).

The rest comes from the other modules of the game's package, which core reaches by name
(`Game.part`): `information` (views and event views), `text` (log lines, decisions, the board, the
rules summary), `sampling` (`sample_state`), `heuristic`, `rollout`, `observation`. See
docs/adding-a-game.md.

The hot path (`legal_actions`, `apply`, `clone`) stays on ints and small lists: `_legal_actions` is
computed once per decision and cached; views, texts and dicts are built only when asked for.

Chance taken from outside (`new_state(explicit_chance=True)`, for exact solvers such as OpenSpiel's
CFR): the state stops at each chance event instead of drawing from its RNG. There it is a *chance
node* (`is_chance_node`, `current_player == CHANCE`): `chance_outcomes()` lists the event's outcomes
with their probabilities and `apply_chance(outcome)` carries one out. A game supports it by drawing,
where `explicit_chance` is set, through `chance_pick`/`chance_draw` instead of its RNG (its seeded
draws stay exactly as they were), and by setting `num_chance_outcomes` and `max_chance_events()`.
"""

from __future__ import annotations

import functools
import importlib
import marshal
import operator
import random
import secrets
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from bodoge.core import options as opts
from bodoge.core.text import Texts, action_words
from bodoge.errors import BadOption, BadRecord, GameNotOver, IllegalAction

if TYPE_CHECKING:
    import numpy as np

RECORD_FORMAT = "bodoge-record/1"
#: `current_player` at a chance node of a state whose chance is taken from outside (`explicit_chance`).
CHANCE = -1
_parts: dict[tuple[type, str], ModuleType | None] = {}
#: The protocol's own words (core/texts/): the end of a game, a game's decision without words of its own.
PROTOCOL_TEXTS = Texts("bodoge.core")
#: Records and the server's database keep a seed as a signed 64-bit integer.
MAX_SEED = 2**63 - 1


class Game:
    """A game's rules with its options fixed. Immutable once made; states refer to it."""

    name: ClassVar[str]
    title: ClassVar[dict[str, str]]  # {"en": ..., "ja": ...}
    #: The rules version new games are played by and their records say. A change to the rules that
    #: would replay a record differently (a deal, a legal action) bumps it.
    rules_version: ClassVar[int] = 1
    #: Every rules version whose records this code replays, `rules_version` among them (by default
    #: only it). A record replays forever (docs/protocol.md, Records): when a game bumps its version,
    #: the old one stays here and the state of an old record plays by it (`State.rules_version`), its
    #: difference kept beside the new code.
    replays_versions: ClassVar[tuple[int, ...]] = (1,)
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[opts.Option, ...]] = ()
    state_class: ClassVar[type[State]]

    num_actions: int  # size of the fixed integer action space; set by the subclass
    #: Chance taken from outside (`new_state(explicit_chance=True)`): chance outcomes are ids 0 …
    #: num_chance_outcomes − 1 (a card type, a tile value: what the game's draws say). None: the game
    #: does not support it (its chance comes only from its RNG).
    num_chance_outcomes: int | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rules_version" in cls.__dict__ and "replays_versions" not in cls.__dict__:
            cls.replays_versions = (cls.rules_version,)
        if cls.rules_version not in cls.replays_versions:
            raise TypeError(
                f"{cls.__qualname__}: replays_versions {cls.replays_versions} must hold its rules_version "
                f"{cls.rules_version}, which new games are played by"
            )

    def __init__(self, /, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.default_players
        allowed = f"an integer from {self.min_players} to {self.max_players}"
        try:
            players = opts.as_int(players)
        except ValueError as exc:
            raise BadOption("players", players, allowed, str(exc)) from None
        if not self.min_players <= players <= self.max_players:
            raise BadOption(
                "players",
                players,
                allowed,
                f"{self.name} is for {self.min_players} to {self.max_players} players",
            )
        self.num_players: int = players
        self._options_json: bytes | None = None
        self.options: dict[str, Any] = opts.resolve(self.option_specs, options)
        self.prepare()

    # -- what a game defines --------------------------------------------------------------------

    def prepare(self) -> None:
        """Check the options against each other and the player count (BadOption), and work out
        what follows from them (`num_actions`, tables). Override where needed."""

    def max_game_length(self) -> int:
        """An upper bound on the number of actions in one game (random play must end within it)."""
        raise NotImplementedError

    def max_chance_events(self) -> int:
        """An upper bound on the number of chance events (`chance_pick`s) in one game with explicit
        chance; a game that sets `num_chance_outcomes` defines it."""
        raise NotImplementedError

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A full state consistent with `view` (the determinization of DESIGN.md §2): the game's
        `sampling` part, `sample_state(game, view, rng)`."""
        if not isinstance(rng, random.Random):  # e.g. a numpy Generator: no shuffle/choice/random alike
            raise TypeError(
                f"rng is a random.Random, such as random.Random(0), not {type(rng).__module__}."
                f"{type(rng).__qualname__}"
            )
        state: State = self.needed_part("sampling").sample_state(self, view, rng)
        return state

    def sampler(self, view: Mapping[str, Any], likely: bool = False) -> Callable[[random.Random], State]:
        """`sample_state(view, rng)` as a function of `rng`, for many samples of one view. A game
        whose sampling reads the view once for many samples gives its `sampling` part a
        `sampler(game, view)`; a search samples one view thousands of times.

        `likely`: deal the unseen cards where the other seats' past moves say they lie, if they play
        as the game's heuristic does, where the game can tell (its `sampling` part's
        `likely_sampler(game, view)`); elsewhere the same as without. Every such sample is still
        consistent with the view; only which of them come up, and how often, differs."""
        sampling = self.part("sampling")
        if likely and sampling is not None and hasattr(sampling, "likely_sampler"):
            found: Callable[[random.Random], State] = sampling.likely_sampler(self, view)
            return found
        if sampling is not None and hasattr(sampling, "sampler"):
            made: Callable[[random.Random], State] = sampling.sampler(self, view)
            return made
        return functools.partial(self.sample_state, view)

    @classmethod
    def rules_summary(cls, lang: str = "en") -> str:
        """The rules in short, as `bodoge rules` and the server show them: the game's texts."""
        return str(cls.needed_part("text").TEXTS.say(lang, "rules.summary"))

    @classmethod
    def legend(cls, lang: str = "en") -> str:
        """What the symbols of the board (`render`) mean, as the terminal shows them: the texts' key
        `render.legend`, or "" where a game's tables have none (an outside package need not write one)."""
        return str(cls.needed_part("text").TEXTS.get(lang, "render.legend", "")).strip("\n")

    # -- shared ---------------------------------------------------------------------------------

    def options_json(self) -> dict[str, Any]:
        """The options as JSON-ready values (records, views, the server); a fresh copy each call."""
        if self._options_json is None:  # the options never change: convert them once
            # kept marshalled: the quickest fresh copy of plain JSON data (every view holds one)
            self._options_json = marshal.dumps(
                {spec.name: spec.to_json(self.options[spec.name]) for spec in self.option_specs}
            )
        loaded: dict[str, Any] = marshal.loads(self._options_json)
        return loaded

    def new_state(
        self,
        seed: int | None = None,
        deck: Any = None,
        rules_version: int | None = None,
        *,
        explicit_chance: bool = False,
    ) -> State:
        """The start of a game. Same seed (and deck, and rules version) -> the same game, bit for bit.

        `deck` stacks the first round's chance outcomes as the game's spec §3 describes (codes, top
        first); a game without stacking support rejects it. `rules_version`: one of
        `replays_versions`, to replay a record of an older version (`bodoge.replay`, the server's
        tables); by default the current `rules_version`, which every new game is played by.

        `explicit_chance=True`: no seed and no RNG; every chance event of the game, the first deal
        included, is taken from outside (the state starts at a chance node; see `State.chance_outcomes`
        and `State.apply_chance`). Only for a game with `num_chance_outcomes`, without `seed` or `deck`;
        such a state has no record (its chance is not a seed's).
        """
        if explicit_chance:
            if self.num_chance_outcomes is None:
                raise BadOption(
                    "explicit_chance", True, "False", f"{self.name} takes its chance only from its RNG"
                )
            if seed is not None or deck is not None:
                raise BadOption(
                    "explicit_chance",
                    True,
                    "False when a seed or a stacked deck is given",
                    "a state with explicit chance takes every chance outcome from outside",
                )
            state = self.state_class.__new__(self.state_class)
            state._init(self, None, None, self.rules_version, explicit_chance=True)
            return state
        if seed is None:
            seed = secrets.randbits(63)
        try:
            seed = opts.bounded(opts.as_int(seed), 0, MAX_SEED)
        except ValueError as exc:
            raise BadOption("seed", seed, f"an integer from 0 to {MAX_SEED}", str(exc)) from None
        if rules_version is None:
            rules_version = self.rules_version
        elif type(rules_version) is not int or rules_version not in self.replays_versions:
            raise BadOption(
                "rules_version",
                rules_version,
                f"one of the rules versions {self.name} replays ({', '.join(map(str, self.replays_versions))})",
                "this bodoge does not know that version",
            )
        state = self.state_class.__new__(self.state_class)
        state._init(self, seed, deck, rules_version)
        return state

    def blank_state(self, rng: random.Random) -> State:
        """An empty state for `sample_state` to fill: no seed, no history, its own future chance."""
        state = self.state_class.__new__(self.state_class)
        state.game = self
        state.seed = None
        state.deck = None
        state.rules_version = self.rules_version  # a sample's future chance: the current rules' own
        state._rng = None  # made at first use (see State.rng)
        state._rng_seed = rng.getrandbits(64)
        state.history = []
        state.events = []
        state.current_player = None
        state._legal = None
        state._log_cache = None
        state._log_shared = False
        return state

    # -- the game's parts: the other modules of its package (docs/adding-a-game.md) -------------

    @classmethod
    def part(cls, name: str) -> ModuleType | None:
        """The module `name` of the package the game's class lives in (`text`, `information`, `sampling`,
        `heuristic`, `rollout`, `observation`, ...), or None if the package has none. Core reaches a game's parts
        only through here, so it names no game, and rules code need not import its words or bots."""
        key = (cls, name)
        if key not in _parts:
            package = cls.__module__.rpartition(".")[0] or cls.__module__
            full = f"{package}.{name}"
            try:
                _parts[key] = importlib.import_module(full)
            except ModuleNotFoundError as exc:
                if exc.name is None or not full.startswith(exc.name):  # a missing import inside it
                    raise
                _parts[key] = None
        return _parts[key]

    @classmethod
    def needed_part(cls, name: str) -> ModuleType:
        """`part(name)` for a part every game has; a clear error where a game package lacks it."""
        module = cls.part(name)
        if module is None:
            raise NotImplementedError(
                f"the {cls.name} package has no {name!r} module (docs/adding-a-game.md)"
            )
        return module

    # -- observations for learning (bodoge.rl): each game's `observation` module encodes its view --

    def observation_module(self) -> ModuleType:
        """The game's `observation` part: `shape(game)`, and `encode(game, view, out)` filling `out`, which
        comes zeroed (`observation_tensor`)."""
        return self.needed_part("observation")

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self.observation_module().shape(self))

    def check_seat(self, seat: Any, spectator_ok: bool = True) -> int | None:
        """A valid seat number (or None for a spectator); BadOption otherwise."""
        if seat is None and spectator_ok:
            return None
        allowed = f"a seat from 0 to {self.num_players - 1}" + (
            ", or None for a spectator" if spectator_ok else ""
        )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise BadOption("seat", seat, allowed)
        return seat

    def __repr__(self) -> str:
        return f"<{self.name} players={self.num_players} options={self.options}>"


class State:
    """One position of a game. Mutated by `apply`; `clone` gives an independent copy."""

    game: Game
    seed: int | None
    deck: Any
    #: The rules version this game is played by (one of `game.replays_versions`): the current one,
    #: or an older one where an older record is replayed. Its record and views say it.
    rules_version: int
    _rng: random.Random | None
    _rng_seed: int | None
    history: list[int]
    events: list[tuple[Any, ...]]
    current_player: int | None
    _legal: list[int] | None
    # each seat's log so far: (events covered, their entries); shared with clones until written
    _log_cache: dict[int | None, tuple[int, tuple[dict[str, Any], ...]]] | None
    _log_shared: bool
    #: Chance taken from outside (`Game.new_state(explicit_chance=True)`): the game draws through
    #: `chance_pick`/`chance_draw`, never its RNG. Class defaults: every other state has its RNG.
    explicit_chance: bool = False
    _given: list[int] | None = None  # while a step is played: the chance outcomes given to it, in order
    _given_at: int = 0  # how many of them it used so far
    _pending: _PendingChance | None = None  # at a chance node: the step waiting for its outcome

    def _init(
        self, game: Game, seed: int | None, deck: Any, rules_version: int, explicit_chance: bool = False
    ) -> None:
        self._fields(game, seed, deck, rules_version, explicit_chance)
        if explicit_chance:
            self._play_step(None, None, [])
        else:
            self.setup()

    def _fields(
        self, game: Game, seed: int | None, deck: Any, rules_version: int, explicit_chance: bool
    ) -> None:
        """The protocol's fields of a state before its setup."""
        self.game = game
        self.seed = seed
        self.deck = deck
        self.rules_version = rules_version
        self._rng = None if explicit_chance else random.Random(seed)
        self._rng_seed = None
        self.history = []
        self.events = []
        self.current_player = None
        self._legal = None
        self._log_cache = None
        self._log_shared = False
        if explicit_chance:
            self.explicit_chance = True

    # -- what a game defines --------------------------------------------------------------------

    def setup(self) -> None:
        """Deal and set up the game (using `self.rng`, or `self.deck` when stacked; by the rules of
        `self.rules_version` where a game replays older versions)."""
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        """The sorted legal action ids of `current_player` (never empty before the end)."""
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Carry out a legal action, then any chance events, and move to the next decision."""
        raise NotImplementedError

    def action_text(self, action: int) -> str:
        raise NotImplementedError

    def action_text_in(self, action: int, lang: str) -> str:
        """`action_text` in `lang`, in words for people. The English text is the one commands parse;
        the languages translate its leading words by the game's `action` texts (`action_words`),
        and the codes after them by the game's `action_rest` where it has one (in English too: the
        view's `words`). A game package without texts (a test's toy game) shows the English."""
        text = self.action_text(action)
        module = self.game.part("text")
        if module is None:
            return text
        # A game whose action texts hold codes (Hangover's `play R4^`) names them in words for
        # people (`action_rest`), in English too; elsewhere the English text is already words.
        rest = getattr(module, "action_rest", None)
        if lang == "en" and rest is None:
            return text
        return action_words(module.TEXTS, lang, text, rest) or text

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's part of `view(seat)`: JSON-ready, and nothing that seat may not know. The
        game's `information` part (its spec's §7) does this: `view(state, seat)`."""
        view: dict[str, Any] = self.game.needed_part("information").view(self, seat)
        return view

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        """One event of `self.events` as `seat` saw it (None: that seat saw nothing of it): the facts,
        keyed in the one event vocabulary ("type", "seat", "round", ...), without text. It may read
        the game and parts of the state that never change once the event happened. The game's
        `information` part does this: `event_view(state, event, seat)`."""
        view: dict[str, Any] | None = self.game.needed_part("information").event_view(self, event, seat)
        return view

    def scores(self) -> list[int]:
        raise NotImplementedError

    def winners(self) -> list[int]:
        raise NotImplementedError

    def render(self, seat: int | None = None) -> str:
        """The board as text for a terminal, from `seat`'s point of view: the game's `text` part."""
        board: str = self.game.needed_part("text").render(self, self.game.check_seat(seat))
        return board

    def check_invariants(self) -> None:
        """Raise AssertionError if any component is not in exactly one place (tests only)."""
        raise NotImplementedError

    def _copy_mutables(self, other: State) -> None:
        """Give the fresh shallow copy `other` its own copies of this game's mutable fields."""
        raise NotImplementedError

    def decision(self) -> str:
        """What is being decided now, in words (for errors and prompts): the game's `text` part
        (`decision_text(state, lang)`, asked only while someone is to move)."""
        return self._decision_text("en")

    def decision_ja(self) -> str:
        """`decision()` in Japanese."""
        return self._decision_text("ja")

    def _decision_text(self, lang: str) -> str:
        if self.current_player is None:
            return PROTOCOL_TEXTS.say(lang, "decision.over")
        if self.current_player == CHANCE:
            return PROTOCOL_TEXTS.say(lang, "decision.chance")
        text = self.game.part("text")
        if text is not None and hasattr(text, "decision_text"):
            said: str = text.decision_text(self, lang)
            return said
        return PROTOCOL_TEXTS.say(lang, "decision.default", seat=self.current_player)

    # -- shared ---------------------------------------------------------------------------------

    @property
    def rng(self) -> random.Random:
        """The state's own chance: every shuffle and random draw of the game (DESIGN.md §2).

        A state made by `sample_state` makes its generator from a seed at first use. Copying a
        generator's state costs more than cloning the rest of a state, and a search clones a sampled
        state for every move it tries, most of which meet no chance before their simulation ends."""
        rng = self._rng
        if rng is None:
            if self.explicit_chance:
                raise RuntimeError(
                    f"{self.game.name}: a state with explicit chance has no RNG; a chance event draws "
                    "through chance_pick or chance_draw"
                )
            rng = self._rng = random.Random(self._rng_seed)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    # -- chance taken from outside (Game.new_state(explicit_chance=True)) ------------------------

    @property
    def is_chance_node(self) -> bool:
        """Whether a chance event waits for its outcome (`apply_chance`); only with explicit chance."""
        return self._pending is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: the next chance event's outcomes (ids below `game.num_chance_outcomes`)
        with their probabilities, which sum to 1, in increasing order of outcome; elsewhere []."""
        pending = self._pending
        return [] if pending is None else list(pending.outcomes)

    @property
    def chance_seen_by(self) -> tuple[int, ...]:
        """At a chance node: the seats that see the pending event's outcome on its own as it happens
        (the card drawn to a hand: its holder; a tile turned face up: everyone; see `chance_pick`);
        elsewhere ()."""
        pending = self._pending
        return () if pending is None else pending.seen_by

    def chance_text(self, outcome: int) -> str:
        """An outcome of a chance event in words: the game's `text` part's `chance_text(game, outcome)`
        where it has one (e.g. the card's code), else its number."""
        text = self.game.part("text")
        if text is not None and hasattr(text, "chance_text"):
            said: str = text.chance_text(self.game, outcome)
            return said
        return f"chance {outcome}"

    def apply_chance(self, outcome: int) -> None:
        """Carry out `outcome` of the pending chance event: the step that met it (the setup, or a
        player's action) plays on to its next chance event or to the next decision. IllegalAction
        if there is no chance node or `outcome` is not one of `chance_outcomes()`."""
        pending = self._pending
        if pending is None:
            raise IllegalAction(outcome, self.decision(), "no chance event is pending")
        if (
            isinstance(outcome, bool)
            or not isinstance(outcome, int)
            or all(o != outcome for o, _ in pending.outcomes)
        ):
            raise IllegalAction(
                outcome,
                self.decision(),
                "not an outcome of this chance event; outcomes: "
                + ", ".join(str(o) for o, _ in pending.outcomes),
            )
        self._play_step(pending.before, pending.action, [*pending.given, int(outcome)])

    def chance_pick(self, weights: list[int], seen_by: tuple[int, ...] = ()) -> int:
        """For a game's rules, with `explicit_chance`: the outcome of a chance event where outcome i
        has probability weights[i] / sum(weights) (weights are counts: cards of each type left, …).
        `seen_by` (`chance_seen_by`): the seats whose log shows this outcome on its own as it
        happens, an event naming it (the card a seat draws, a tile turned face up); by default
        nobody (a deal that a seat's log shows as a whole hand: it sees that hand, not the order).
        The outcome comes from outside: where none is given yet, the step stops here and the state
        becomes a chance node (the step is played again from its start once it is given)."""
        given = self._given
        if given is None:
            raise RuntimeError("chance_pick is for a state with explicit chance, within a step")
        at = self._given_at
        if at < len(given):
            self._given_at = at + 1
            return given[at]
        total = sum(weights)
        raise _ChanceNeeded(tuple((o, w / total) for o, w in enumerate(weights) if w > 0), seen_by)

    def chance_draw(self, cards: list[int], seen_by: tuple[int, ...] = ()) -> int:
        """`chance_pick` of one card from `cards` (ids below `game.num_chance_outcomes`, any order:
        with explicit chance a pile's order is not drawn until its cards are): each id with the
        probability of its share of `cards`. Removes one of it from `cards` and returns it."""
        weights = [0] * (max(cards) + 1)
        for c in cards:
            weights[c] += 1
        card = self.chance_pick(weights, seen_by)
        cards.remove(card)
        return card

    def _play_step(self, before: State | None, action: int | None, given: list[int]) -> None:
        """Play one step with explicit chance, `given` its chance outcomes so far: the setup
        (`before` None) or `action` from a copy of `before` (which may be `self`). It ends at the
        next decision, or at a chance event not yet given, where `self` stays as it was and becomes
        a chance node."""
        if before is None:
            trial = self.__class__.__new__(self.__class__)
            trial._fields(self.game, None, None, self.rules_version, True)
        else:
            trial = before.clone()
        trial._given = given
        trial._given_at = 0
        trial._legal = None
        try:
            if action is None:
                trial.setup()
            else:
                trial.history.append(action)
                trial._apply(action)
        except _ChanceNeeded as need:
            if before is self:  # kept for the next try; `self` itself becomes the chance node
                before = self.clone()
            self._pending = _PendingChance(before, action, tuple(given), need.outcomes, need.seen_by)
            self.current_player = CHANCE
            self._legal = None
            return
        if trial._given_at != len(given):
            raise AssertionError(
                f"{self.game.name}: a step used {trial._given_at} of {len(given)} chance outcomes"
            )
        trial._given = None
        trial._given_at = 0
        trial._pending = None
        self.__dict__ = trial.__dict__

    # -- shared, continued ----------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            player = self.current_player
            self._legal = [] if player is None or player == CHANCE else self._legal_actions()
        return list(self._legal)

    def apply_random(self, rand: Callable[[], float]) -> int:
        """Take a legal action chosen uniformly with `rand()` in [0, 1) (`random.Random.random`) and
        return it: the rollouts of a search, without `apply`'s checks and copies (the action comes
        from the legal list itself). Not for a state with explicit chance (use `apply`)."""
        legal = self._legal
        if legal is None:
            legal = self._legal_actions()
        a = legal[int(rand() * len(legal))]
        self._legal = None
        self.history.append(a)
        self._apply(a)
        return a

    def parse_action(self, text: str) -> int:
        """The id of a legal action from its text (or its number); IllegalAction if not legal now."""
        if not isinstance(text, str):
            raise IllegalAction(text, self.decision(), "an action text must be a string")
        wanted = " ".join(text.split()).lower()
        if self.current_player is None:
            raise IllegalAction(text, self.decision(), "the game is over")
        legal = self.legal_actions()
        if wanted.lstrip("-").isdigit():
            return self._checked(int(wanted), legal)
        for a in legal:
            if self.action_text(a).lower() == wanted:
                return a
        raise IllegalAction(
            text, self.decision(), "not a legal action now; legal: " + self._legal_list(legal)
        )

    def apply(self, action: int | str, seat: int | None = None) -> None:
        """Take `action` (an id or its text) for `current_player`; `seat`, if given, must be theirs.

        An illegal action raises IllegalAction and changes nothing.
        """
        if seat is not None and seat != self.current_player:
            whose = (
                "nobody's turn: the game is over"
                if self.current_player is None
                else (f"it is P{self.current_player}'s decision, not P{seat}'s")
            )
            raise IllegalAction(action, self.decision(), whose)
        legal = self._legal
        if legal is None:
            player = self.current_player
            legal = self._legal = [] if player is None or player == CHANCE else self._legal_actions()
        if type(action) is int and action in legal:  # the hot path: a legal id
            a = action
        elif isinstance(action, str):
            a = self.parse_action(action)
        else:
            a = self._checked(action, legal)
        if self.explicit_chance:  # played on a copy: a chance event on the way leaves this state as it was
            self._play_step(self, a, [])
            return
        self._legal = None
        self.history.append(a)
        self._apply(a)

    def _checked(self, action: Any, legal: list[int]) -> int:
        if isinstance(action, bool):
            raise IllegalAction(action, self.decision(), "an action is an integer id or its text")
        try:
            a = operator.index(action)
        except TypeError:
            raise IllegalAction(action, self.decision(), "an action is an integer id or its text") from None
        if a in legal:
            return a
        if self.current_player is None:
            reason = "the game is over"
        elif self.current_player == CHANCE:
            reason = "a chance event is pending (apply_chance)"
        elif not 0 <= a < self.game.num_actions:
            reason = f"action ids are 0 to {self.game.num_actions - 1}; legal now: " + self._legal_list(legal)
        else:
            reason = f"{self.action_text(a)!r} is not legal now; legal: " + self._legal_list(legal)
        raise IllegalAction(action, self.decision(), reason)

    def _legal_list(self, legal: list[int]) -> str:
        return ", ".join(f"{a}={self.action_text(a)!r}" for a in legal)

    def clone(self) -> State:
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        if self._rng is not None:  # else both make the same generator from the seed when they need it
            # Random.__new__ skips seeding from the OS, which setstate would overwrite anyway.
            other._rng = random.Random.__new__(random.Random)
            other._rng.setstate(self._rng.getstate())
        other.history = self.history.copy()
        other.events = self.events.copy()  # events are tuples: shared safely
        other._legal = self._legal
        if self._log_cache is not None:  # the log so far is the clone's too: share it, copy on write
            self._log_shared = other._log_shared = True
        pending = self._pending
        if pending is None or pending.before is not None:  # (while the setup waits: no game fields yet)
            self._copy_mutables(other)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # The game is immutable and shared; everything else is copied by clone().
        return self.clone()

    def observation_tensor(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """Seat's view as a fixed-size float32 array in [-1, 1] (the game's `observation` module).

        `out`: a float32 array of `game.observation_shape` (any values) to fill and return instead of
        a new one, e.g. a row of a batch. A game's `observation` module may read the state straight
        (`encode_state(game, state, seat, out)`) instead of encoding the view (`encode`); both give
        the same tensor, bit for bit (tests check it)."""
        import numpy as np

        game = self.game
        module = game.observation_module()
        if out is None:
            out = np.zeros(game.observation_shape, dtype=np.float32)
        elif out.dtype != np.float32:
            raise TypeError(f"observation_tensor: out is a float32 array, not {out.dtype}")
        fast = getattr(module, "encode_state", None)
        if fast is not None and self._pending is None:
            fast(game, self, game.check_seat(seat), out)
        else:  # the reference: the encoding of the view (also at a chance node)
            out.fill(0.0)
            module.encode(game, self.view(seat), out)
        return out

    def legal_mask(self) -> np.ndarray:
        """1 for each legal action of `current_player` over `game.num_actions`, else 0 (int8)."""
        import numpy as np

        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def returns(self) -> list[float]:
        """At the end: 1/len(winners) for each winner, 0 for the others."""
        if self.current_player is not None:
            raise GameNotOver("returns()", self.decision())
        won = self.winners()
        share = 1.0 / len(won) if won else 0.0
        return [share if p in won else 0.0 for p in range(self.game.num_players)]

    def log(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The events of the game as `seat` saw them, each with its line of text in English ("text")
        and Japanese ("text_ja") from the game's `text` part.

        An event's entry depends only on the event, the seat and the game, and events are only ever
        appended, so each seat's entries are built once and kept (read-only `LogEntry`s): a view costs
        little more than its newest events. A clone shares what was built so far (the server clones
        the table's state for every action), copying the cache before either writes to it."""
        cache = self._log_cache
        if cache is None:
            cache = self._log_cache = {}
        events = self.events
        done, entries = cache.get(seat, (0, ()))
        if done > len(events):  # the events were replaced by fewer: start over
            done, entries = 0, ()
        if done < len(events):
            text = self.game.part("text")
            game = self.game
            new = []
            for event in events[done:]:
                seen = self._event_view(event, seat)
                if seen is not None:
                    if text is not None:
                        seen["text"] = text.event_text(game, seen, "en")
                        seen["text_ja"] = text.event_text(game, seen, "ja")
                    new.append(LogEntry(seen))
            entries += tuple(new)
            if self._log_shared:  # another state shares the cache: write to a copy of our own
                cache = self._log_cache = dict(cache)
                self._log_shared = False
            cache[seat] = (len(events), entries)
        return list(entries)

    def view(self, seat: int | None = None, log: bool = True) -> dict[str, Any]:
        """All that `seat` knows (None: a spectator), JSON-ready. The one guard of every secret.

        `log=False` leaves out the `log`, the costliest part to build: for a bot's simulations, whose
        players decide on the present state (no heuristic reads the log)."""
        seat = self.game.check_seat(seat)
        game = self.game
        if self._pending is not None and self._pending.before is None:
            raise RuntimeError(
                f"{game.name}: the setup waits for a chance outcome; there is nothing to see yet"
            )
        v: dict[str, Any] = {
            "game": game.name,
            "rules_version": self.rules_version,
            "players": game.num_players,
            "options": game.options_json(),
            "seat": seat,
            "current_player": self.current_player,
            "is_terminal": self.current_player is None,
            "decision": self.decision(),
            "decision_ja": self.decision_ja(),
            "scores": self.scores(),
        }
        own = self._view(seat)
        clash = own.keys() & v.keys()
        if clash:  # a game's keys must not shadow the protocol's (clients and bots rely on them)
            raise AssertionError(f"{game.name}: _view() reuses the protocol's view keys {sorted(clash)}")
        v.update(own)
        if seat is not None and seat == self.current_player:
            v["legal_actions"] = [
                {
                    "id": a,
                    "text": self.action_text(a),
                    "text_ja": self.action_text_in(a, "ja"),
                    "words": self.action_text_in(a, "en"),
                }
                for a in self.legal_actions()
            ]
        if self.current_player is None:
            v["winners"] = self.winners()
        if log:
            v["log"] = self.log(seat)
        return v

    def lazy_view(self, seat: int | None = None) -> LazyView:
        """`view(seat)` built only as far as it is read: for agents in simulations (see LazyView)."""
        return LazyView(self, self.game.check_seat(seat))

    def to_record(self) -> dict[str, Any]:
        """The game so far as a versioned JSON record; `bodoge.replay` rebuilds it."""
        if self.explicit_chance:
            raise BadRecord("a state with explicit chance has no seed: its chance came from outside")
        if self.seed is None:
            raise BadRecord("a state made by sample_state has no true history and cannot be recorded")
        result = None
        if self.current_player is None:
            result = {"scores": self.scores(), "winners": self.winners()}
        return {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "rules_version": self.rules_version,
            "players": self.game.num_players,
            "options": self.game.options_json(),
            "seed": self.seed,
            "deck": self.deck,
            "actions": list(self.history),
            "result": result,
        }

    def __repr__(self) -> str:
        return f"<{self.game.name} state: move {len(self.history)}, {self.decision()}>"


class _ChanceNeeded(Exception):
    """A step with explicit chance met a chance event whose outcome is not given yet."""

    def __init__(self, outcomes: tuple[tuple[int, float], ...], seen_by: tuple[int, ...]) -> None:
        super().__init__("a chance outcome is needed")
        self.outcomes = outcomes
        self.seen_by = seen_by


class _PendingChance:
    """A chance node's step: played from `before` (None: the setup) with `action`, given `given`."""

    __slots__ = ("action", "before", "given", "outcomes", "seen_by")

    def __init__(
        self,
        before: State | None,
        action: int | None,
        given: tuple[int, ...],
        outcomes: tuple[tuple[int, float], ...],
        seen_by: tuple[int, ...],
    ) -> None:
        self.before = before  # never changed: each try plays on a copy of it
        self.action = action
        self.given = given
        self.outcomes = outcomes
        self.seen_by = seen_by


class LogEntry(dict[str, Any]):
    """One event of a view's log: a dict that refuses changes (views share their log entries)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a view's log entry is read-only; copy it with dict(entry)")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles are plain dicts
        return (dict, (dict(self),))

    __ior__ = _refuse  # type: ignore[assignment]


class LazyView(Mapping[str, Any]):
    """`state.view(seat)` built only as far as an agent reads it, so that the arena's random and
    heuristic players run near the engine's speed: `agents.legal_ids` takes the legal ids straight
    from the state, the rest of the view is built at the first key read, and the log (most of a
    view's cost, and read only by the samplers of search bots) only when asked for.

    It reads the live state, so what it has not built by the time the state moves on it cannot build:
    reading that later raises RuntimeError. An agent that keeps a view past its move copies it first
    (`dict(view)`)."""

    __slots__ = ("_log", "_moves", "_seat", "_state", "_view")

    def __init__(self, state: State, seat: int | None) -> None:
        self._state = state
        self._seat = seat
        self._moves = len(state.history)
        self._view: dict[str, Any] | None = None
        self._log: list[dict[str, Any]] | None = None

    def _live(self) -> State:
        if len(self._state.history) != self._moves:
            raise RuntimeError(
                f"this view is of move {self._moves} and the game has moved on: "
                "an agent that keeps a view past its move must copy it (dict(view))"
            )
        return self._state

    def legal_ids(self) -> list[int]:
        """The legal action ids offered to this seat (empty if it is not this seat's decision)."""
        state = self._live()
        return state.legal_actions() if self._seat is not None and self._seat == state.current_player else []

    def _base(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._live().view(self._seat, log=False)
        return self._view

    def __getitem__(self, key: str) -> Any:
        if key == "log":
            if self._log is None:
                self._log = self._live().log(self._seat)
            return self._log
        return self._base()[key]

    def __contains__(self, key: object) -> bool:
        return key == "log" or key in self._base()

    def __iter__(self) -> Iterator[str]:
        yield from self._base()
        yield "log"

    def __len__(self) -> int:
        return len(self._base()) + 1

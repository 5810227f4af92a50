"""The bodies the table API reads (POST /api/tables, its seats and clock, a hint's ask) and those of
open tables and quick match (server/seating.py, which reads the same clock): pydantic models,
strict, each bound saying what is allowed."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from bodoge.server.table.clock import LONG_RESERVE, LONG_TURN


class SeatIn(BaseModel):
    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=40)
    spec: str | None = Field(default=None, max_length=200)


def _whole_seconds(value: Any) -> Any:
    """A whole number of seconds written as a decimal (60.0, as JavaScript and many JSON writers
    give it) is that integer; any other number with a fraction is refused (the strict model then
    refuses text, booleans and the rest)."""
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"seconds are an integer, such as 60, not {value!r}")
        return int(value)
    return value


Seconds = Annotated[int, BeforeValidator(_whole_seconds)]


SITTING_TURN, SITTING_RESERVE = 3600, 86400  # the most a clock for one sitting gives


class ClockIn(BaseModel):
    """A turn clock: seconds for each decision, and a reserve that the decisions' overtime comes
    out of; when both are spent, a stand-in bot plays for the person until they are back. `long`: a
    game over days (hours or days a move, server/longplay.py): its clock runs whether anyone is
    connected or not, and the stand-in makes only the move whose time ran out."""

    model_config = ConfigDict(strict=True, extra="forbid")

    turn_seconds: Seconds = Field(ge=1, le=LONG_TURN[1])
    reserve_seconds: Seconds = Field(default=0, ge=0, le=LONG_RESERVE)
    long: bool = False

    @model_validator(mode="after")
    def _sitting_or_days(self) -> ClockIn:
        if self.long and self.turn_seconds < LONG_TURN[0]:
            raise ValueError(
                f'a clock over days ("long": true) gives {LONG_TURN[0]} to {LONG_TURN[1]} seconds '
                f"(an hour to a week) a move, not {self.turn_seconds}"
            )
        if not self.long and (self.turn_seconds > SITTING_TURN or self.reserve_seconds > SITTING_RESERVE):
            raise ValueError(
                f"a clock for one sitting gives at most {SITTING_TURN} seconds a move and a reserve of "
                f'{SITTING_RESERVE}; for hours or days a move, say "long": true (up to {LONG_TURN[1]} '
                f"seconds a move and {LONG_RESERVE} of reserve)"
            )
        return self


class CreateTableIn(BaseModel):
    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    seats: list[SeatIn] = Field(max_length=16)
    clock: ClockIn | None = None
    standin: str | None = Field(default=None, max_length=200)
    # A practice table: its one person may ask for hints (server/hints.py).
    hints: bool = Field(default=False, strict=True)


class HintIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    token: str = Field(max_length=200)


# -- open tables and quick match (server/seating.py) ----------------------------------------------

MAX_BOTS_AFTER = 3600  # seconds a creator may make people wait before bots fill the seats


class SeatingIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=2, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    clock: dict[str, Any] | None = Field(default=None, max_length=4)  # bodies.ClockIn
    public: bool = True
    # Seconds after which the free seats get bots (None: never): whole seconds, up to an hour.
    bots_after: int | None = Field(default=None, ge=1, le=MAX_BOTS_AFTER)
    bot: str | None = Field(default=None, max_length=200)


class QuickIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=2, le=16)


class RemoveIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    # Waiting: the place in the list of who sat down; started: the table's seat number.
    seat: int = Field(ge=0, le=15)
    player: str | None = Field(default=None, max_length=16)  # whose seat it should be (a check)

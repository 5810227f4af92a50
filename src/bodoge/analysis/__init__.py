"""Analysis of finished games: the value of every option of a decision (`values`), and the game
review built on it (`review`; docs/review.md)."""

from bodoge.analysis.review import review_record, review_records
from bodoge.analysis.values import Budget, option_values

__all__ = ["Budget", "option_values", "review_record", "review_records"]

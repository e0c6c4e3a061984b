"""The game's data, one module per feature: identities, rooms and their seats and events,
rounds and their words, word reports, the daily boards, the arena, chat and spectators.

What matters (accepted words, scores, results, events) is stored here before anyone is told
about it, so no process's memory is ever the only copy. Every model is importable from here.
"""

from games.models.arena import Arena, ArenaEntry
from games.models.chat import ChatMessage
from games.models.daily import DailyAttempt, DailyBoard, DailyScore
from games.models.identities import PlayerIdentity
from games.models.reports import WordReport
from games.models.rooms import Player, PlayerQuerySet, Room, RoomEvent
from games.models.rounds import Hint, Refusal, Round, Submission
from games.models.spectators import Spectator

__all__ = [
    "Arena",
    "ArenaEntry",
    "ChatMessage",
    "DailyAttempt",
    "DailyBoard",
    "DailyScore",
    "Hint",
    "Player",
    "PlayerIdentity",
    "PlayerQuerySet",
    "Refusal",
    "Room",
    "RoomEvent",
    "Round",
    "Spectator",
    "Submission",
    "WordReport",
]

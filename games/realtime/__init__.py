"""The way out for every effect: the on-commit outbox, the runner that calls services and
delivers what they emitted, live counts coalesced per room, the relay of a room's notices to
its workers, the channel layer. Imports no feature."""

"""What one client may do: token buckets per socket, allowances per address (rooms, seats,
guessed codes, reports), open sockets per address for every worker. Imports no feature."""

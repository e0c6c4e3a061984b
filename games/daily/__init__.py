"""The daily boards: a day's board for everyone, one ranked attempt each, the leaderboard,
streaks and the share text."""

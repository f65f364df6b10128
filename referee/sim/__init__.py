"""The synthetic table: physics of coins, players that flick them, and a webcam-like camera."""

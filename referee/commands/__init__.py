"""One module a `referee` subcommand (see referee.cli)."""

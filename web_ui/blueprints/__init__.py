"""The web UI's blueprints: pages, the JSON API, the Server-Sent-Events stream, security."""

"""Lambda entry points: thin. Parse, call the rooms service, log and count."""

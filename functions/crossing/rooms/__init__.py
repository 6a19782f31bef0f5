"""Rooms: membership, presence, host, lobby to results, grace, saves, and views."""

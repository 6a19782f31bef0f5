"""Running the site on one machine without AWS."""

"""Settings every test shares."""

import os

# Powertools reads these when a handler module builds its Logger and Metrics,
# so they are set before any test imports a handler.
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "crossing-test")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "CrossingWordsTest")

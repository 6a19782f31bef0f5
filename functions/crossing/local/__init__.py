"""The local stack: the whole game on one machine, no AWS account (``crossing serve``)."""

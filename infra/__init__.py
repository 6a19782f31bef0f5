"""The CDK app (aws-cdk-lib v2): one construct per unit, composed by ``stack.py``.

``app.py`` reads the stage's knobs from context (``settings.py``) and builds one
``CrossingStack`` per stage; ``build_asset.py`` packages the Lambda code without Docker.

Importing ``infra`` (before ``aws_cdk``: its Node process starts at import) silences
jsii's banner about a Node release past or near its end of life: jsii's Python side
prints it as raw bytes, ``b'!!…'`` one line at a time, in every ``cdk synth`` and test
run. Which Node to use is in docs/operations.md. Warnings about an untested or known
broken Node still print.
"""

import os

os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")
# This one names the major releases it silences.
os.environ.setdefault(
    "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", ",".join(str(major) for major in range(100))
)

"""The CDK app (aws-cdk-lib v2): one construct per unit, composed by ``stack.py``.

``app.py`` reads the stage's knobs from context (``settings.py``) and builds one
``CrossingStack`` per stage; ``build_asset.py`` packages the Lambda code without Docker.
"""

"""Adapters: the rooms' ports on AWS (DynamoDB, API Gateway, EventBridge Scheduler, S3).

boto3 is imported only in this package. ``memory`` holds in-memory fakes of the
same ports for tests; ``config`` builds the real ones from environment variables,
so the same code talks to AWS or to the local stack.
"""

"""The rooms' frame queue: SQS FIFO, one message group per room or Duel game.

``$default`` sends each frame bound to a room here (``crossing.aws.queue``) and the
consumer function takes up to ten at a time; SQS hands a group's next messages out only
once the earlier ones are done, so each room has one writer at a time and its frames
keep their order. A frame that keeps failing goes, after ``MAX_RECEIVES`` deliveries, to
the dead-letter queue, which monitoring alarms on, as on the queue's oldest frame.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_sqs as sqs
from constructs import Construct

BATCH = 10  # the most a FIFO event source hands one invocation
CONSUMER_TIMEOUT_S = 5
"""A batch is a read, a write and the posts per room (well under a second), and the
consumer's own tries again (``crossing.rooms.consuming``) stop with two seconds left."""
VISIBILITY_S = CONSUMER_TIMEOUT_S + 2
"""How long a frame handed back waits before SQS delivers it again, its room's later
frames behind it. Never under the consumer's timeout (the event source refuses that:
a frame would be delivered again while its batch still runs), with two seconds for the
poller's hand-over. Lambda's advice of six times the timeout is for riding out the
consumer's throttling without the dead-letter queue; here a room must not wait that
long, and throttling pages (``consumeThrottles``)."""
MAX_RECEIVES = 4
"""Deliveries before the dead-letter queue, each of up to three tries in the consumer:
a room waits behind a frame that keeps failing for at most MAX_RECEIVES x VISIBILITY_S,
28 s, and then goes on."""


class Frames(Construct):
    def __init__(self, scope: Construct, id: str) -> None:
        super().__init__(scope, id)
        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            fifo=True,
            retention_period=Duration.days(14),  # the longest SQS keeps: time to look
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            fifo=True,
            # The sender names each frame (API Gateway's request id): two frames with the
            # same text, a letter typed twice, are two frames.
            content_based_deduplication=False,
            deduplication_scope=sqs.DeduplicationScope.MESSAGE_GROUP,
            fifo_throughput_limit=sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
            visibility_timeout=Duration.seconds(VISIBILITY_S),
            retention_period=Duration.hours(1),  # a frame older than that is no use to anyone
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            dead_letter_queue=sqs.DeadLetterQueue(
                max_receive_count=MAX_RECEIVES, queue=self.dead_letters
            ),
        )

    def grant_send(self, grantee: iam.IGrantable) -> None:
        """``SendMessage`` only: the receiving handler enqueues, nothing more."""
        self.queue.grant_send_messages(grantee)

    def consume_with(self, function: lambda_.Function) -> None:
        """``function`` is handed the frames, reporting the ones that failed; the event
        source grants it receive, delete and change-visibility on this queue only."""
        function.add_event_source(
            sources.SqsEventSource(self.queue, batch_size=BATCH, report_batch_item_failures=True)
        )

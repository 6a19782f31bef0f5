"""EventBridge Scheduler: the rooms' schedule group and the role Scheduler assumes.

``crossing.aws.timers`` names each schedule ``room-<code>`` in this group and sends
``{"room", "version"}`` to the timer function; Scheduler invokes it as this role. An
invocation Scheduler gives up on (retries spent, or the function refused it) goes to the
dead-letter queue, which monitoring alarms on.
"""

from __future__ import annotations

from aws_cdk import ArnFormat, Aws, Duration, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_sqs as sqs
from constructs import Construct

SCHEDULER = "scheduler.amazonaws.com"


class Timers(Construct):
    """The group, the invoke role, and the grant a timer-arming function needs."""

    def __init__(
        self, scope: Construct, id: str, *, group_name: str, timer_function_name: str
    ) -> None:
        super().__init__(scope, id)
        stack = Stack.of(self)
        self.group_name = group_name
        self.group = scheduler.CfnScheduleGroup(self, "Group", name=group_name)
        # Written from the name, not the function: the function's own environment holds it.
        self.timer_function_arn = stack.format_arn(
            service="lambda",
            resource="function",
            resource_name=timer_function_name,
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        self.role = iam.Role(
            self,
            "InvokeRole",
            description="EventBridge Scheduler invokes the rooms' timer function",
            assumed_by=iam.ServicePrincipal(
                SCHEDULER,
                # Only schedules in this account may use it (confused-deputy guard).
                conditions={"StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID}},
            ),
        )
        # Schedules target the unqualified ARN: no version or alias needs the grant.
        self.role.add_to_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"], resources=[self.timer_function_arn]
            )
        )
        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            retention_period=Duration.days(14),  # the longest SQS keeps: time to look
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
        )
        self.dead_letters.grant_send_messages(self.role)
        self.schedules_arn = stack.format_arn(
            service="scheduler",
            resource="schedule",
            resource_name=f"{group_name}/*",
            arn_format=ArnFormat.SLASH_RESOURCE_NAME,
        )

    def grant_arm(self, grantee: iam.IGrantable) -> None:
        """Create, move and delete schedules in this group, handing Scheduler the role."""
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=[
                "scheduler:CreateSchedule",
                "scheduler:UpdateSchedule",
                "scheduler:DeleteSchedule",
            ],
            resource_arns=[self.schedules_arn],
        )
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=["iam:PassRole"],
            resource_arns=[self.role.role_arn],
            conditions={"StringEquals": {"iam:PassedToService": SCHEDULER}},
        )

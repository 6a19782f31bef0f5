from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_iam as iam
from aws_cdk.assertions import Capture, Match, Template

from infra.timers import Timers


def test_the_group_and_a_role_that_invokes_only_the_timer(stack: Stack) -> None:
    Timers(stack, "Timers", group_name="crossing-test", timer_function_name="crossing-test-timer")
    template = Template.from_stack(stack)
    template.has_resource_properties("AWS::Scheduler::ScheduleGroup", {"Name": "crossing-test"})
    template.has_resource_properties(
        "AWS::IAM::Role",
        {
            "AssumeRolePolicyDocument": {
                "Statement": [
                    Match.object_like(
                        {"Principal": {"Service": "scheduler.amazonaws.com"}, "Effect": "Allow"}
                    )
                ]
            }
        },
    )
    statements = Capture()
    template.has_resource_properties(
        "AWS::IAM::Policy", {"PolicyDocument": {"Statement": statements, "Version": "2012-10-17"}}
    )
    by_action = {str(s["Action"]): s for s in statements.as_array()}
    assert set(by_action) == {
        "lambda:InvokeFunction",
        str(["sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"]),
    }
    text = str(by_action["lambda:InvokeFunction"]["Resource"])
    assert "function:crossing-test-timer" in text
    assert text.count("function:") == 1  # the function schedules name, nothing else
    # What Scheduler gives up on goes to the dead-letter queue (the role may send there).
    assert "DeadLetters" in str(
        by_action[str(["sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"])]["Resource"]
    )


def test_arming_grants_schedules_in_the_group_and_passing_the_role(stack: Stack) -> None:
    timers = Timers(stack, "Timers", group_name="g", timer_function_name="f")
    user = iam.Role(stack, "Armer", assumed_by=iam.AccountRootPrincipal())
    timers.grant_arm(user)
    statements = Capture()
    Template.from_stack(stack).has_resource_properties(
        "AWS::IAM::Policy",
        {
            "Roles": [{"Ref": Match.string_like_regexp("Armer")}],
            "PolicyDocument": {"Statement": statements, "Version": "2012-10-17"},
        },
    )
    by_action = {str(s["Action"]): s for s in statements.as_array()}
    schedules = by_action[
        str(["scheduler:CreateSchedule", "scheduler:UpdateSchedule", "scheduler:DeleteSchedule"])
    ]
    assert ":schedule/g/*" in str(schedules["Resource"])
    passing = by_action["iam:PassRole"]
    assert passing["Condition"] == {
        "StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}
    }

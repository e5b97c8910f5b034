import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** What the outbox does to post schedules (shared/adapters/scheduler/post-scheduler.ts). */
export const SCHEDULE_ACTIONS = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
] as const;

export interface PostSchedulingProps {
  /** The schedule group's name, one per stage. */
  groupName: string;
  /** Where a due schedule puts the post's delivery message. */
  targetQueue: sqs.IQueue;
  /** Where Scheduler puts a message it could not send after its retries. */
  deadLetterQueue: sqs.IQueue;
}

/**
 * EventBridge Scheduler for posts scheduled more than 15 minutes ahead (docs/delivery.md): the
 * schedule group every post schedule lives in (so grants can name the group's schedules only), and
 * the role Scheduler assumes to send the delivery message: trusted by Scheduler for this account
 * only, allowed to send to the delivery queue and its dead-letter queue, nothing else.
 */
export class PostScheduling extends Construct {
  readonly group: scheduler.CfnScheduleGroup;
  readonly role: iam.Role;
  readonly deadLetterQueue: sqs.IQueue;
  private readonly groupNameLiteral: string;

  constructor(scope: Construct, id: string, props: PostSchedulingProps) {
    super(scope, id);
    this.groupNameLiteral = props.groupName;
    this.deadLetterQueue = props.deadLetterQueue;
    this.group = new scheduler.CfnScheduleGroup(this, 'Group', { name: props.groupName });

    this.role = new iam.Role(this, 'Role', {
      description: 'Assumed by EventBridge Scheduler to put due posts on the delivery queue',
      // aws:SourceAccount: only schedules of this account may use the role (confused deputy).
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    });
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['sqs:SendMessage'],
        resources: [props.targetQueue.queueArn, props.deadLetterQueue.queueArn],
      }),
    );
  }

  /** The group's name, as a reference: a function given it is created after the group. */
  get groupName(): string {
    return this.group.ref;
  }

  /** `arn:…:schedule/<group>/*`: the group's schedules, none of any other group. */
  get schedulesArn(): string {
    return Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.groupNameLiteral}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  }

  /**
   * Create, move and delete the group's schedules, and hand Scheduler its role for them (PassRole on
   * that role alone, and only to Scheduler).
   */
  grantManageSchedules(grantee: iam.IGrantable): void {
    iam.Grant.addToPrincipal({ grantee, actions: [...SCHEDULE_ACTIONS], resourceArns: [this.schedulesArn] });
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }
}

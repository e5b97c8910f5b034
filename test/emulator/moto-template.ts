/**
 * The synthesized template as moto's CloudFormation can take it, and the resource types it cannot
 * create. Every change to the template is listed here with its reason; nothing else is touched.
 */

export type CfnTemplate = {
  Parameters?: Record<string, { Type: string; Default?: string; Description?: string }>;
  Resources: Record<
    string,
    { Type: string; Properties?: Record<string, unknown>; DependsOn?: string | string[] }
  >;
  Outputs?: Record<string, { Value: unknown }>;
} & Record<string, unknown>;

/**
 * Resource types of our stack that moto (5.2.5) does not create through CloudFormation: it skips
 * them (lists them with no type) and creates the rest. docs/deploy.md has the same table.
 */
export const MOTO_UNSUPPORTED_TYPES: Readonly<Record<string, string>> = {
  'AWS::ApiGatewayV2::Api': 'moto has API Gateway v2, but not as a CloudFormation resource',
  'AWS::ApiGatewayV2::Stage': 'as above',
  'AWS::ApiGatewayV2::Route': 'as above',
  'AWS::ApiGatewayV2::Integration': 'as above',
  'AWS::CloudWatch::Alarm': 'moto creates only AWS::CloudWatch::Dashboard through CloudFormation',
  'AWS::Lambda::Url': 'not a CloudFormation resource in moto',
  'AWS::Lambda::EventInvokeConfig': 'not a CloudFormation resource in moto',
  'AWS::S3::BucketPolicy': 'not a CloudFormation resource in moto',
  'AWS::SQS::QueuePolicy': 'not a CloudFormation resource in moto',
  'AWS::SNS::TopicPolicy': 'not a CloudFormation resource in moto',
  'AWS::Scheduler::ScheduleGroup':
    'moto has Scheduler (test/emulator/scheduler.test.ts), but not as a CloudFormation resource',
  'AWS::SecretsManager::Secret':
    'moto has Secrets Manager (secrets-manager.test.ts), but not as a CloudFormation resource',
  'AWS::CDK::Metadata': "CDK's own version report; no service behind it",
};

/** Types removed before the deployment, with why. */
export const MOTO_REMOVED_TYPES: Readonly<Record<string, string>> = {
  'Custom::S3BucketNotifications':
    'a custom resource: moto runs its Lambda in Docker (none here) and waits for its answer, so the stack ' +
    'would stay CREATE_IN_PROGRESS; the bucket notification itself is asserted in test/infra',
};

export interface MotoTemplate {
  template: CfnTemplate;
  /** What was changed, one line each (printed with the report). */
  changes: string[];
}

/** The asset bucket's parameter CDK's default synthesizer reads from the bootstrap stack's SSM parameter. */
const BOOTSTRAP_VERSION = 'BootstrapVersion';

export function forMoto(original: CfnTemplate, bootstrapVersion: string): MotoTemplate {
  const template = structuredClone(original);
  const changes: string[] = [];
  const resources = template.Resources;

  for (const [id, resource] of Object.entries(resources)) {
    if (!(resource.Type in MOTO_REMOVED_TYPES)) continue;
    delete resources[id];
    for (const other of Object.values(resources)) {
      if (other.DependsOn === id) delete other.DependsOn;
      else if (Array.isArray(other.DependsOn)) other.DependsOn = other.DependsOn.filter((d) => d !== id);
    }
    changes.push(`removed ${id} (${resource.Type}): ${MOTO_REMOVED_TYPES[resource.Type]}`);
  }

  // moto fails the whole CreateStack (a template error, or a 500 for an Output) on a GetAtt of a
  // resource it skips, where AWS would have the attribute: such a GetAtt becomes a marked string.
  const unsupported = new Set(
    Object.entries(resources)
      .filter(([, resource]) => resource.Type in MOTO_UNSUPPORTED_TYPES)
      .map(([id]) => id),
  );
  let replaced = 0;
  const replaceGetAtts = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replaceGetAtts);
    if (typeof value !== 'object' || value === null) return value;
    const getAtt = (value as Record<string, unknown>)['Fn::GetAtt'];
    if (Array.isArray(getAtt) && unsupported.has(String(getAtt[0]))) {
      replaced++;
      return `moto-unsupported:${getAtt[0]}.${getAtt[1]}`;
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replaceGetAtts(inner)]));
  };
  for (const resource of Object.values(resources)) {
    if (resource.Properties)
      resource.Properties = replaceGetAtts(resource.Properties) as Record<string, unknown>;
  }
  if (template.Outputs) template.Outputs = replaceGetAtts(template.Outputs) as CfnTemplate['Outputs'];
  if (replaced > 0) {
    changes.push(
      `${replaced} Fn::GetAtt of a resource moto skips replaced by a marked string (moto cannot resolve them)`,
    );
  }

  // moto's KMS::Key handler hands CloudFormation's tags ({Key, Value}) to its tagging service,
  // which reads {TagKey, TagValue} (KeyError: 'TagKey', a 500): the tags are given in its form.
  for (const [id, resource] of Object.entries(resources)) {
    const tags = resource.Properties?.Tags;
    if (resource.Type !== 'AWS::KMS::Key' || !Array.isArray(tags)) continue;
    resource.Properties = {
      ...resource.Properties,
      Tags: (tags as { Key: string; Value: string }[]).map((tag) => ({
        TagKey: tag.Key,
        TagValue: tag.Value,
      })),
    };
    changes.push(`${id}: tags written as {TagKey, TagValue}, the form moto's KMS handler reads (a moto bug)`);
  }

  // The CDK bootstrap stack keeps its version in SSM; the project has no SSM client, so the value is
  // given as the parameter itself (moto does not evaluate the template's Rules anyway).
  const parameter = template.Parameters?.[BOOTSTRAP_VERSION];
  if (parameter) {
    template.Parameters = {
      ...template.Parameters,
      [BOOTSTRAP_VERSION]: { ...parameter, Type: 'String', Default: bootstrapVersion },
    };
    changes.push(
      `${BOOTSTRAP_VERSION}: a plain parameter of ${bootstrapVersion} instead of the bootstrap stack's SSM parameter`,
    );
  }
  return { template, changes };
}

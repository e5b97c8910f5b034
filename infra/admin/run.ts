import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoTenancyStore } from '../../shared/adapters/dynamodb/tenancy-store.js';
import { makeDynamoUserStore } from '../../shared/adapters/dynamodb/user-store.js';
import { AppError } from '../../shared/domain/errors.js';
import { type Clock, systemClock } from '../../shared/ports/clock.js';
import { silentLogger } from '../../shared/ports/logger.js';
import { makeAdmin } from '../../shared/services/admin.js';
import { makeUserAdmin } from '../../shared/services/users/user-admin.js';
import { findCommand, type Run } from './commands.js';
import { TargetError, UsageError } from './errors.js';
import { COMMAND_OPTIONS, type CommandOption, parseCommandLine, type Values } from './options.js';
import { makeOutput, type Output, type TextSink } from './output.js';
import { type CloudFormationFactory, resolveTarget, type Target, type TargetOptions } from './target.js';
import { commandUsage, USAGE_HINT, usage } from './usage.js';

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: TextSink;
  stderr: TextSink;
  cloudFormation?: CloudFormationFactory;
  clock?: Clock;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** What to do once the command line is understood. */
type Plan = { kind: 'usage'; text: string } | { kind: 'run'; run: Run; target: TargetOptions };

/** The whole CLI, in-process: parse, resolve the target, run one use case, report. Returns the exit code. */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  // Known before parsing succeeds, so that even a usage error keeps the JSON promise.
  const out = makeOutput(argv.includes('--json'), io.stdout, io.stderr);
  let target: Target | undefined;
  try {
    const plan = planRun(argv);
    if (plan.kind === 'usage') {
      out.result({ usage: plan.text }, [plan.text]);
      return EXIT.ok;
    }
    target = await resolveTarget(plan.target, io);
    out.note(`target: ${target.description}`);
    const client = makeDynamoClient(target.connection);
    try {
      const db = makeDocumentClient(client);
      const tenancy = makeDynamoTenancyStore(db, target.tables.main);
      const clock = io.clock ?? systemClock;
      const users = makeDynamoUserStore(db, target.tables);
      await plan.run(makeAdmin({ tenancy, clock }), out, {
        userAdmin: makeUserAdmin({ users, tenancy, clock, logger: silentLogger }),
        ...(target.dashboardUrl && { dashboardUrl: target.dashboardUrl }),
      });
    } finally {
      client.destroy();
    }
    return EXIT.ok;
  } catch (error) {
    return report(error, out, target, io.env);
  }
}

function planRun(argv: readonly string[]): Plan {
  const { values, positionals } = parseCommandLine(argv);
  const [name, ...extra] = positionals;
  if (name === undefined) {
    if (values.help) return { kind: 'usage', text: usage() };
    throw new UsageError('Name a command.');
  }
  if (name === 'help') {
    const [topic, ...rest] = extra;
    if (topic === undefined) return { kind: 'usage', text: usage() };
    const command = findCommand(topic);
    if (!command || rest.length > 0) throw new UsageError(`Unknown command "${extra.join(' ')}".`);
    return { kind: 'usage', text: commandUsage(command) };
  }
  const command = findCommand(name);
  if (!command) throw new UsageError(`Unknown command "${name}".`);
  if (values.help) return { kind: 'usage', text: commandUsage(command) };
  if (extra.length > 0)
    throw new UsageError(`${name} takes no argument "${extra[0]}"; options start with --.`);
  const foreign = givenCommandOptions(values).filter((option) => !command.options.includes(option));
  if (foreign.length > 0) {
    throw new UsageError(`${name} does not take ${foreign.map((option) => `--${option}`).join(', ')}.`);
  }
  return { kind: 'run', run: command.prepare(values), target: targetOptions(values) };
}

function givenCommandOptions(values: Values): CommandOption[] {
  return (Object.keys(COMMAND_OPTIONS) as CommandOption[]).filter((option) => values[option] !== undefined);
}

function targetOptions(values: Values): TargetOptions {
  const { stack, region } = values;
  const dataDir = values['data-dir'];
  if (stack !== undefined && dataDir !== undefined) {
    throw new UsageError('--data-dir names a local host and --stack a deployed one: give one of them.');
  }
  if (region !== undefined && stack === undefined) {
    throw new UsageError('--region applies to --stack; the local host names its own region.');
  }
  if (stack === '') throw new UsageError('--stack needs a stack name.');
  return {
    ...(dataDir !== undefined && { dataDir }),
    ...(stack !== undefined && { stack }),
    ...(region !== undefined && { region }),
  };
}

function report(error: unknown, out: Output, target: Target | undefined, env: NodeJS.ProcessEnv): number {
  if (error instanceof UsageError) {
    out.error('usage', error.message, USAGE_HINT);
    return EXIT.usage;
  }
  if (error instanceof AppError || error instanceof TargetError) {
    out.error(error.code, error.message);
    return EXIT.failed;
  }
  if (target?.unreachableHint && isConnectionRefused(error)) {
    out.error('target_unavailable', target.unreachableHint);
    return EXIT.failed;
  }
  // A bug or an outage: one line by default; the stack trace only on request.
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const debug = env.ADMIN_DEBUG && error instanceof Error ? error.stack : undefined;
  out.error(
    'internal_error',
    `unexpected failure: ${message}`,
    debug ?? 'Set ADMIN_DEBUG=1 for the stack trace.',
  );
  return EXIT.failed;
}

/** Node reports a refused connection as ECONNREFUSED, or as an AggregateError of them (IPv4 and IPv6). */
function isConnectionRefused(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { code?: unknown }).code === 'ECONNREFUSED') return true;
  const nested = (error as { errors?: unknown }).errors;
  return Array.isArray(nested) && nested.some(isConnectionRefused);
}

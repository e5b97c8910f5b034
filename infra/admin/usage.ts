import { COMMANDS, type Command } from './commands.js';

const INVOCATION = 'npm run admin --';

const TARGETS = `Targets (where the tables are):
  (default)            the local host of a data folder: --data-dir D, else $DATA_DIR, else .data/local.
                       Start it first with \`npm start\`.
  --stack NAME         a deployed CDK stack, found through its CloudFormation outputs
  [--region R]         (MainTableName, RateLimitsTableName); AWS credentials from the default chain.
One-time set-password links (bootstrap --owner-email, invite-user, user-link) are printed under the target's
dashboard: the local host's address, or the stack's DashboardUrl output (else as a path).`;

const GLOBALS = `Options of every command:
  --json               print exactly one JSON object on stdout (errors too: {"error","message"})
  -h, --help           this text, or one command's usage`;

export function commandUsage(command: Command): string {
  return `${INVOCATION} ${command.name} ${command.synopsis}\n  ${command.summary}`;
}

export function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length)) + 2;
  const commands = COMMANDS.map(
    (command) =>
      `  ${command.name.padEnd(width)} ${command.synopsis}\n  ${''.padEnd(width)} ${command.summary}`,
  ).join('\n');
  return [
    `Usage: ${INVOCATION} <command> [options]`,
    '',
    'The operator admin CLI: it acts as a super-admin on the tables of one target.',
    '',
    'Commands:',
    commands,
    `  ${'help'.padEnd(width)} [command]`,
    '',
    TARGETS,
    '',
    GLOBALS,
    '',
    'Exit codes: 0 done, 1 refused or failed (message on stderr, or the JSON error on stdout), 2 bad usage.',
  ].join('\n');
}

export const USAGE_HINT = `Run \`${INVOCATION} help\` for usage.`;

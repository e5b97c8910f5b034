/** Where the CLI writes; process.stdout in production, a string collector in tests. */
export interface TextSink {
  write(chunk: string): unknown;
}

/**
 * Everything a command says goes through here, so `--json` can promise exactly one JSON object on
 * stdout (scripts pipe it to jq) while the human form stays free to be chatty.
 */
export interface Output {
  readonly json: boolean;
  /** The command's one result: `record` with --json, else `lines`. */
  result(record: object, lines: readonly string[]): void;
  /** Context for a person (the target in use); never written in JSON mode. */
  note(line: string): void;
  /** One failure: `{"error","message"}` on stdout with --json, else `error: …` on stderr. */
  error(code: string, message: string, hint?: string): void;
  /** Plain text for a person on stdout (usage). */
  text(text: string): void;
}

export function makeOutput(json: boolean, stdout: TextSink, stderr: TextSink): Output {
  const line = (sink: TextSink, text: string) => sink.write(text.endsWith('\n') ? text : `${text}\n`);
  return {
    json,
    result(record, lines) {
      if (json) line(stdout, JSON.stringify(record, null, 2));
      else if (lines.length > 0) line(stdout, lines.join('\n'));
    },
    note(text) {
      if (!json) line(stderr, text);
    },
    error(code, message, hint) {
      if (json) line(stdout, JSON.stringify({ error: code, message }));
      else line(stderr, `error: ${message}`);
      // The hint goes to stderr in both modes: stdout stays one parseable object.
      if (hint) line(stderr, hint);
    },
    text(text) {
      line(stdout, text);
    },
  };
}

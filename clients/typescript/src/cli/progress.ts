/** Where progress goes: stderr, so stdout stays the command's own output. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_WIDTH = 24;

/**
 * A progress bar redrawn in place on a terminal (`[#####·····] 3/30 created launch/teaser`); on a
 * pipe or in CI, one plain line per step, so a log says exactly how far an interrupted apply got.
 */
export function makeProgress(total: number, stream: ProgressStream) {
  let done = 0;
  return {
    step(label: string): void {
      done++;
      if (!stream.isTTY) {
        stream.write(`[${done}/${total}] ${label}\n`);
        return;
      }
      const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
      const line = `[${'#'.repeat(filled)}${'·'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${label}`;
      const width = stream.columns ?? 80;
      stream.write(`\r\x1b[2K${line.slice(0, width - 1)}`);
      if (done === total) stream.write('\n');
    },
    /** Ends the bar's line early (an error is about to be written). */
    interrupt(): void {
      if (stream.isTTY && done > 0 && done < total) stream.write('\n');
    },
  };
}

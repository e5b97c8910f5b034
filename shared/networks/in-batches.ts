/**
 * The items in order, split into consecutive batches of at most `size` (the last may be shorter):
 * how a connector sends a long list of ids to a network that takes a bounded number a request.
 * An empty list gives no batch, so no request is made for it.
 */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  // A size below 1 would loop for ever (or, fractional, cut items in halves): a caller's bug.
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`A batch size must be a whole number from 1 (got ${size}).`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

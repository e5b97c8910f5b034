/**
 * How many delivery batches run at once from the first message of a burst, in AWS and on the local
 * host alike (docs/delivery.md "Bursts").
 *
 * In its standard mode Lambda's SQS event source starts a burst with five invocations and adds
 * about five a second (300 a minute), so 200 posts due together (20 batches of 10) would take
 * seconds to all be running, and a few slow network calls would hold most of the first five. In
 * provisioned mode the event source keeps pollers ready, each running up to ten invocations at
 * once, and scales from there about three times faster. The delivery worker keeps three: 30
 * batches, 300 posts, at once from the start. The local host runs the same 30 batches at once
 * (it does not model the scaling beyond them), so it is never quicker off the mark than AWS.
 */
export const DELIVERY_MINIMUM_POLLERS = 3;

/** Invocations one provisioned SQS event poller runs at once. */
export const INVOCATIONS_PER_POLLER = 10;

/** Delivery batches at once from the start of a burst: the local host's default too. */
export const DELIVERY_READY_BATCHES = DELIVERY_MINIMUM_POLLERS * INVOCATIONS_PER_POLLER;

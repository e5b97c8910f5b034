/**
 * A video's length in seconds from its MP4/QuickTime movie header (`mvhd`: timescale and
 * duration), or undefined when the bytes have none: what TikTok checks against the creator's
 * `max_video_post_duration_sec` once the upload is in (fail_reason `duration_check_failed`).
 * The fake reads only this one box; a file without it passes, as the fake cannot tell.
 */
export function mvhdDurationSeconds(bytes: Buffer): number | undefined {
  const at = bytes.indexOf('mvhd', 0, 'latin1');
  if (at < 4) return undefined;
  const version = bytes[at + 4];
  const body = at + 8; // after the box type, version (1 byte) and flags (3 bytes)
  if (version === 1) {
    if (bytes.length < body + 28) return undefined;
    const timescale = bytes.readUInt32BE(body + 16);
    const duration = Number(bytes.readBigUInt64BE(body + 20));
    return timescale > 0 ? duration / timescale : undefined;
  }
  if (bytes.length < body + 16) return undefined;
  const timescale = bytes.readUInt32BE(body + 8);
  const duration = bytes.readUInt32BE(body + 12);
  return timescale > 0 ? duration / timescale : undefined;
}

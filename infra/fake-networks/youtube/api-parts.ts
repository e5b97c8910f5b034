import { googleError, type Reply } from './http.js';

/** The `part` names videos.list takes (videos reference). */
const VIDEO_PARTS = new Set([
  'contentDetails',
  'fileDetails',
  'id',
  'liveStreamingDetails',
  'localizations',
  'player',
  'processingDetails',
  'recordingDetails',
  'snippet',
  'statistics',
  'status',
  'suggestions',
  'topicDetails',
]);
/** The `part` names channels.list takes (channels reference). */
const CHANNEL_PARTS = new Set([
  'auditDetails',
  'brandingSettings',
  'contentDetails',
  'contentOwnerDetails',
  'id',
  'localizations',
  'snippet',
  'statistics',
  'status',
  'topicDetails',
]);

/**
 * The `part` parameter read as Google does: required, comma-separated, each name one the resource
 * has (a misspelt `statistic` is 400 unknownPart in domain youtube.part, naming the part).
 */
export function readParts(params: URLSearchParams, resource: 'videos' | 'channels'): string[] | Reply {
  const parts = (params.get('part') ?? '').split(',').filter(Boolean);
  if (parts.length === 0) return googleError(400, 'required', 'Required parameter: part', 'global');
  const known = resource === 'videos' ? VIDEO_PARTS : CHANNEL_PARTS;
  const unknown = parts.find((part) => !known.has(part));
  if (unknown !== undefined) return googleError(400, 'unknownPart', unknown, 'youtube.part');
  return parts;
}

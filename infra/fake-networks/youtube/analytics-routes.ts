import { FAKE_REPORT_METRICS, REPORTS_MAX_FILTER_IDS, videoReport } from './analytics-report.js';
import { authorize, isReply } from './api-auth.js';
import { googleError } from './http.js';
import { ANALYTICS_SCOPES, type Handler } from './route.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The Analytics API's refusal of a query: 400 with its reason (reports.query errors). */
function badQuery(reason: string, message: string) {
  return googleError(400, reason, message, 'global');
}

/**
 * GET /v2/reports (YouTube Analytics API, reports.query) for the token's channel: `ids=channel==MINE`
 * (or its own id), `startDate`/`endDate` (YYYY-MM-DD, in order) and `metrics` required, and the
 * one report the service reads, `dimensions=video` with `filters=video==a,b` (at most 500 ids). A
 * result table: columnHeaders (the dimension, then the metrics as asked) and a row per video of
 * the channel that has data (rows left out when none has: too new for the data's lag, deleted,
 * or another channel's). Costs no Data API units: it is another API with its own quota.
 */
export const reportsQuery: Handler = (context) => {
  const token = authorize(context, ANALYTICS_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  const ids = params.get('ids');
  if (!ids) return badQuery('required', 'Required parameter: ids');
  if (ids !== 'channel==MINE' && ids !== `channel==${token.channelId}`)
    return googleError(403, 'forbidden', 'Forbidden', 'global');
  const startDate = params.get('startDate') ?? '';
  const endDate = params.get('endDate') ?? '';
  if (!startDate || !endDate) return badQuery('required', 'Required parameters: startDate, endDate');
  if (!DATE.test(startDate) || !DATE.test(endDate) || startDate > endDate)
    return badQuery('invalid', 'Invalid value for startDate or endDate.');
  const metrics = (params.get('metrics') ?? '').split(',').filter(Boolean);
  if (metrics.length === 0) return badQuery('required', 'Required parameter: metrics');
  const unknown = metrics.find((metric) => !(metric in FAKE_REPORT_METRICS));
  if (unknown)
    return badQuery('badRequest', `Unknown identifier (${unknown}) given in field parameters.metrics.`);
  if (params.get('dimensions') !== 'video')
    return badQuery('badRequest', 'The query is not supported (the fake knows dimensions=video alone).');
  const filter = /^video==([^;]+)$/.exec(params.get('filters') ?? '');
  if (!filter) return badQuery('badRequest', 'The query is not supported: filters=video==… required.');
  const videoIds = (filter[1] ?? '').split(',').filter(Boolean);
  if (videoIds.length > REPORTS_MAX_FILTER_IDS)
    return badQuery('badRequest', `The filter takes at most ${REPORTS_MAX_FILTER_IDS} ids.`);
  const now = context.settings.now();
  const rows: (string | number)[][] = [];
  for (const video of context.store.videos) {
    if (!videoIds.includes(video.id) || video.channelId !== token.channelId) continue;
    const report = videoReport(video, { startDate, endDate }, now);
    if (report) rows.push([video.id, ...metrics.map((metric) => report[metric] ?? 0)]);
  }
  return {
    status: 200,
    json: {
      kind: 'youtubeAnalytics#resultTable',
      columnHeaders: [
        { name: 'video', columnType: 'DIMENSION', dataType: 'STRING' },
        ...metrics.map((name) => ({ name, columnType: 'METRIC', dataType: FAKE_REPORT_METRICS[name] })),
      ],
      ...(rows.length > 0 && { rows }),
    },
  };
};

import type { WorkspacePolicies } from '../../domain/policies.js';
import { describeWindow } from '../../domain/policy-check.js';
import { NETWORK_NAMES } from '../../networks/definitions.js';
import { type Html, html } from '../html.js';

/** The policies for someone who only reads them (a viewer). */
export function policiesSummary(policies: WorkspacePolicies | undefined): Html {
  const p = policies ?? {};
  const none = 'None';
  return html`<dl class="facts"><dt>Require approval</dt><dd>${p.requireApproval ? 'Yes' : 'No'}</dd><dt>Blocked terms</dt><dd>${
    p.blockedTerms?.join(', ') ?? none
  }</dd><dt>Allowed platforms</dt><dd>${
    p.allowedPlatforms?.map((platform) => NETWORK_NAMES[platform]).join(', ') ?? 'Every platform'
  }</dd><dt>Posting window</dt><dd>${p.postingWindow ? describeWindow(p.postingWindow) : none}</dd><dt>Blackout dates</dt><dd>${
    p.blackoutDates?.join(', ') ?? none
  }</dd><dt>Require alt text</dt><dd>${p.requireAltText ? 'Yes' : 'No'}</dd></dl>`;
}

import type { Context } from 'hono';
import { effectiveMetricsPlatforms } from '../../domain/metrics-settings.js';
import type { Workspace } from '../../domain/tenancy.js';
import { NETWORK_DEFINITIONS } from '../../networks/definitions.js';
import { networkMetricsOf } from '../../networks/network-metrics.js';
import type { DashboardEnv } from '../env.js';
import { checkboxGroup, postForm, submitButton } from '../forms.js';
import { type Html, html } from '../html.js';
import { workspacesPath } from './workspaces-format.js';

/** A network as the setting lists it: its name, and what its reads cost where they are billed. */
function labelOf(definition: (typeof NETWORK_DEFINITIONS)[number]): string {
  const metrics = networkMetricsOf(definition.platform);
  if (!metrics) return `${definition.displayName} (gives no metrics)`;
  return metrics.paidPerRead
    ? `${definition.displayName} (each read is billed by the network)`
    : definition.displayName;
}

/**
 * Which networks' metrics the workspace collects: checkboxes for those who administer it, the
 * list in words for the others. Off by default for networks that bill each read (X).
 */
export function metricsSettingSection(
  c: Context<DashboardEnv>,
  workspace: Workspace,
  canChange: boolean,
): Html {
  const collected = effectiveMetricsPlatforms(workspace);
  const intro = html`<p>The service reads published posts' numbers on a schedule and each account's once a day, for the networks chosen here${
    workspace.metricsCollection ? html`` : html` (the default: every network whose reads are not billed)`
  }.</p>`;
  if (!canChange) {
    const names = NETWORK_DEFINITIONS.filter((definition) => collected.includes(definition.platform)).map(
      (definition) => definition.displayName,
    );
    return html`<section aria-labelledby="metrics-setting"><h2 id="metrics-setting">Metrics collection</h2>${intro}<p>Collected: ${
      names.length > 0 ? names.join(', ') : 'none'
    }.</p></section>`;
  }
  return html`<section aria-labelledby="metrics-setting"><h2 id="metrics-setting">Metrics collection</h2>${intro}${postForm(
    c,
    `${workspacesPath(workspace.workspaceId)}/metrics-collection`,
    html`${checkboxGroup({
      name: 'platforms',
      legend: 'Collect metrics from',
      choices: NETWORK_DEFINITIONS.map((definition) => ({
        value: definition.platform,
        label: labelOf(definition),
      })),
      checked: collected,
    })}${submitButton('Save')}`,
  )}</section>`;
}

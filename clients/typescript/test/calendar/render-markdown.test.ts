import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/calendar/render-markdown.js';
import { sampleReport, VALID } from './render-fixtures.js';

describe('renderMarkdown', () => {
  it('has a heading, the summary and a changes table with one row per change', () => {
    // Act
    const markdown = renderMarkdown(sampleReport());
    const lines = markdown.split('\n');

    // Assess
    expect(lines[0]).toBe('## Calendar plan: `acme`');
    expect(markdown).toContain(
      '**Plan: 1 to create, 1 to reschedule, 1 to edit, 1 to cancel, 1 unchanged.**',
    );
    expect(lines).toContain('| Change | Entry | When (UTC) | Local time | Post | Notes |');
    const rows = lines.filter((line) => line.startsWith('| ') && line.includes('`acme/'));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toBe(
      '| ➕ create | `acme/launch` | 2026-12-07 08:00 UTC | 2026-12-07 09:00 Europe/Berlin, slot | linkedin acc_li |  |',
    );
    expect(rows[1]).toContain('| 2026-12-07 08:00 UTC → 2026-12-07 13:00 UTC |');
    expect(rows[1]).not.toContain('fields:');
    expect(rows[2]).toContain('fields: content');
    expect(markdown).not.toContain('acme/kept');
    expect(markdown).not.toContain('[!CAUTION]');
  });

  it('lists problems and approvals, and warns that the plan has errors', () => {
    // Prepare
    const report = sampleReport({
      'acme/launch': {
        valid: false,
        postStatus: 'scheduled',
        errors: [{ field: 'media[0].id', code: 'MEDIA_NOT_FOUND', message: 'No media med_1 | here.' }],
      },
      'acme/moved': { ...VALID, postStatus: 'pending_approval' },
      'acme/edited': {
        valid: false,
        postStatus: 'scheduled',
        errors: [],
        policyViolation: {
          facet: 'content',
          reason: 'blocked_word',
          message: 'The text holds a blocked word.',
        },
      },
    });

    // Act
    const markdown = renderMarkdown(report);

    // Assess
    expect(markdown).toContain('> [!CAUTION]');
    expect(markdown).toContain('### Problems');
    expect(markdown).toContain(
      '- `acme/launch` (create): media[0].id: MEDIA_NOT_FOUND: No media med_1 \\| here.',
    );
    expect(markdown).toContain('- `acme/edited` (edit): refused: The text holds a blocked word.');
    const moved = markdown.split('\n').find((line) => line.includes('`acme/moved`'));
    expect(moved).toContain('needs approval');
  });

  it('escapes a pipe in a cell so the table keeps its columns', () => {
    const report = sampleReport();
    const edit = report.items.find((item) => item.kind === 'edit');
    if (edit) edit.note = 'a | b';
    const row = renderMarkdown(report)
      .split('\n')
      .find((line) => line.includes('`acme/edited`'));
    expect(row).toContain('a \\| b');
    expect(row?.split(/(?<!\\)\|/)).toHaveLength(8);
  });

  it('marks a day over its limit in the forecast table', () => {
    const markdown = renderMarkdown(sampleReport({}, true));
    expect(markdown).toContain('### Quota forecast');
    expect(markdown).toContain(
      '| 2026-12-07 | Acme GmbH (linkedin) | 160 | 1 | 0 | 150 | **over the limit** |',
    );
    expect(markdown).toContain('> [!CAUTION]');
  });

  it('lists unchanged entries when verbose', () => {
    expect(renderMarkdown(sampleReport(), { verbose: true })).toContain('| unchanged | `acme/kept` |');
  });
});

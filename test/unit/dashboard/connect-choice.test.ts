import { describe, expect, it } from 'vitest';
import { connectBodyOf } from '../../../shared/dashboard/views/accounts-table.js';

describe('the dashboard’s connect choice values', () => {
  it('send a platform alone, or a platform and its kind of app under the network’s field', () => {
    expect(connectBodyOf('twitter')).toEqual({ platform: 'twitter' });
    expect(connectBodyOf('linkedin')).toEqual({ platform: 'linkedin' });
    expect(connectBodyOf('linkedin:community')).toEqual({ platform: 'linkedin', linkedinApp: 'community' });
    expect(connectBodyOf('linkedin:member')).toEqual({ platform: 'linkedin', linkedinApp: 'member' });
  });

  it('leave a kind on a network without a choice in the platform, for the API to refuse', () => {
    expect(connectBodyOf('twitter:community')).toEqual({ platform: 'twitter:community' });
  });
});

import { describe, expect, it } from 'vitest';
import { appAskedFor, appChoiceOf, appKindsOf, kindOfApp } from '../../../shared/networks/app-kinds.js';
import { APP_CHOICES, definitionOf } from '../../../shared/networks/definitions.js';

describe('the networks with more than one kind of app (a definition’s appChoice)', () => {
  it('is LinkedIn alone today, its field linkedinApp, member (LINKEDIN) then community (LINKEDIN_COMMUNITY)', () => {
    expect(APP_CHOICES.map((choice) => [choice.platform, choice.field, choice.kinds])).toEqual([
      ['linkedin', 'linkedinApp', { member: 'LINKEDIN', community: 'LINKEDIN_COMMUNITY' }],
    ]);
    expect(appChoiceOf('twitter')).toBeUndefined();
  });

  it('names each network’s own apps, every one of them, the default app’s kind first, in fields of their own', () => {
    for (const choice of APP_CHOICES) {
      const { apps } = definitionOf(choice.platform);
      expect(Object.values(choice.kinds)).toEqual(apps);
      expect(Object.values(choice.dashboardChoices).every((label) => label.length > 0)).toBe(true);
      expect(Object.keys(choice.dashboardChoices).every((kind) => kind in choice.kinds)).toBe(true);
    }
    const fields = APP_CHOICES.map((choice) => choice.field);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it('reads an account’s kind from the app it recorded; none recorded, or an app no longer a kind: the default app’s', () => {
    const choice = appChoiceOf('linkedin') ?? expect.unreachable('LinkedIn declares its kinds of app');
    expect(kindOfApp(choice, 'LINKEDIN_COMMUNITY')).toBe('community');
    expect(kindOfApp(choice, 'LINKEDIN')).toBe('member');
    expect(kindOfApp(choice, undefined)).toBe('member');
    expect(kindOfApp(choice, 'LINKEDIN_RETIRED')).toBe('member');
    expect(appKindsOf(choice)).toEqual(['member', 'community']);
  });

  it('turns the kind a connect asks for into its app, and asks for none when no field names one', () => {
    expect(appAskedFor({ linkedinApp: 'community' })).toEqual({ app: 'LINKEDIN_COMMUNITY' });
    expect(appAskedFor({ linkedinApp: 'member' })).toEqual({ app: 'LINKEDIN' });
    expect(appAskedFor({})).toEqual({});
  });
});

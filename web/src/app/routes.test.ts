import { describe, expect, it } from 'vitest';
import { PAGES, resolvePage } from './routes';

describe('resolvePage', () => {
  it('sends / and the empty path to the inbox', () => {
    expect(resolvePage('/')).toBe('Inbox');
    expect(resolvePage('')).toBe('Inbox');
  });

  it('matches case-insensitively', () => {
    expect(resolvePage('/inbox')).toBe('Inbox');
    expect(resolvePage('/INBOX')).toBe('Inbox');
    expect(resolvePage('/Inbox')).toBe('Inbox');
    expect(resolvePage('/pendingreplies')).toBe('PendingReplies');
    expect(resolvePage('/aitraining')).toBe('AITraining');
    expect(resolvePage('/contacts')).toBe('Contacts');
    expect(resolvePage('/TASKS')).toBe('Tasks');
    expect(resolvePage('/rules')).toBe('Rules');
  });

  it('uses the last path segment', () => {
    expect(resolvePage('/foo/bar/Settings')).toBe('Settings');
    expect(resolvePage('/Settings/Search')).toBe('Search');
    expect(resolvePage('/Compose/')).toBe('Compose');
  });

  it('falls back to the inbox for unknown names', () => {
    expect(resolvePage('/nope')).toBe('Inbox');
    expect(resolvePage('/Settings/nope')).toBe('Inbox');
    expect(resolvePage('/%E0%A4%A')).toBe('Inbox');
  });

  it('shows the page-builder page for /BuilderPage and /builder, in any case', () => {
    for (const name of ['BuilderPage', 'builderpage', 'builder', 'BUILDER']) {
      expect(resolvePage(`/${name}`)).toBe('BuilderPage');
      expect(resolvePage(`/Settings/${name}`)).toBe('BuilderPage');
    }
    expect(resolvePage('/builder-demo')).toBe('Inbox');
    expect(PAGES).toEqual([
      'Inbox',
      'PendingReplies',
      'Compose',
      'Search',
      'Contacts',
      'Tasks',
      'Subscriptions',
      'Snoozed',
      'Rules',
      'SmartFeatures',
      'AITraining',
      'Settings',
      'BuilderPage',
    ]);
  });

  it('resolves every page by its own name', () => {
    for (const p of PAGES) expect(resolvePage(`/${p}`)).toBe(p);
  });
});

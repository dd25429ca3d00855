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
  });

  it('uses the last path segment', () => {
    expect(resolvePage('/foo/bar/Contacts')).toBe('Contacts');
    expect(resolvePage('/Settings/Tasks')).toBe('Tasks');
    expect(resolvePage('/Compose/')).toBe('Compose');
  });

  it('falls back to the inbox for unknown names', () => {
    expect(resolvePage('/nope')).toBe('Inbox');
    expect(resolvePage('/Contacts/nope')).toBe('Inbox');
    expect(resolvePage('/%E0%A4%A')).toBe('Inbox');
  });

  it('maps /builder and /BuilderPage to the same page', () => {
    expect(resolvePage('/builder')).toBe('BuilderPage');
    expect(resolvePage('/BuilderPage')).toBe('BuilderPage');
    expect(resolvePage('/BUILDER')).toBe('BuilderPage');
  });

  it('resolves every page by its own name', () => {
    for (const p of PAGES) expect(resolvePage(`/${p}`)).toBe(p);
  });
});

import { describe, expect, it } from 'vitest';
import { setDisplayTimeZone } from '../../lib/dates';
import { EMPTY_SEARCH, canSearch, hasFilters, searchQueryString, timezoneOffset } from '../../api/search';
import { inboxFolderFor, openResultHref, resultFolderTitle } from './folders';
import { pageCount } from './Pager';
import { filterCount, normalizeDay, readSearchParams, writeSearchParams, withoutFilters } from './urlState';

describe('the search in the URL', () => {
  it('reads what is set and defaults the rest', () => {
    const p = readSearchParams(new URLSearchParams('q=פגישה&from=dana&unread=1&starred=0&folder=sent&page=3'));
    expect(p).toEqual({ ...EMPTY_SEARCH, q: 'פגישה', from: 'dana', unread: true, folder: 'sent', page: 3 });
    expect(readSearchParams(new URLSearchParams(''))).toEqual(EMPTY_SEARCH);
  });

  it('ignores a page that is not a page and a day that is not a day', () => {
    for (const page of ['0', '-2', 'abc', '']) {
      expect(readSearchParams(new URLSearchParams({ page })).page).toBe(1);
    }
    expect(readSearchParams(new URLSearchParams('after=2024-02-30&before=tomorrow'))).toEqual(EMPTY_SEARCH);
  });

  it('accepts dd/MM/yyyy days and turns them into yyyy-mm-dd', () => {
    expect(normalizeDay('01/03/2024')).toBe('2024-03-01');
    expect(normalizeDay('2024-03-01')).toBe('2024-03-01');
    expect(normalizeDay('31/04/2024')).toBe('');
    expect(normalizeDay(null)).toBe('');
  });

  it('writes only what is set: page 1 and all folders are left out', () => {
    expect(writeSearchParams(EMPTY_SEARCH).toString()).toBe('');
    expect(writeSearchParams({ ...EMPTY_SEARCH, q: ' a b ', attachment: true, page: 1 }).toString()).toBe(
      'q=a+b&attachment=1',
    );
    const p = { ...EMPTY_SEARCH, q: 'x', to: 'y', before: '2024-01-01', folder: 'trash', page: 2 };
    expect(readSearchParams(writeSearchParams(p))).toEqual(p);
  });

  it('clearing the filters keeps the query; the filters are counted', () => {
    const p = { ...EMPTY_SEARCH, q: 'x', from: 'a', unread: true, folder: 'junk', page: 4 };
    expect(filterCount(p)).toBe(3);
    expect(withoutFilters(p)).toEqual({ ...EMPTY_SEARCH, q: 'x' });
    expect(filterCount(withoutFilters(p))).toBe(0);
  });
});

describe('when a search runs', () => {
  it('needs a query that is not blank or a filter (a folder other than all counts)', () => {
    expect(canSearch(EMPTY_SEARCH)).toBe(false);
    expect(canSearch({ ...EMPTY_SEARCH, q: '   ' })).toBe(false);
    expect(canSearch({ ...EMPTY_SEARCH, from: '  ' })).toBe(false);
    expect(canSearch({ ...EMPTY_SEARCH, folder: 'all' })).toBe(false);
    expect(canSearch({ ...EMPTY_SEARCH, q: 'a' })).toBe(true);
    expect(canSearch({ ...EMPTY_SEARCH, folder: 'inbox' })).toBe(true);
    expect(canSearch({ ...EMPTY_SEARCH, starred: true })).toBe(true);
    expect(canSearch({ ...EMPTY_SEARCH, after: '2024-01-01' })).toBe(true);
    expect(hasFilters({ ...EMPTY_SEARCH, q: 'a' })).toBe(false);
  });

  it('asks the server with only what is set, the page, its size and the time zone', () => {
    expect(searchQueryString({ ...EMPTY_SEARCH, q: 'a', tz: 120 })).toBe('q=a&page=1&perPage=20&tz=120');
    expect(
      searchQueryString({ ...EMPTY_SEARCH, subject: 'דוח', unread: true, folder: 'drafts', page: 2, tz: -300 }),
    ).toBe(`subject=${encodeURIComponent('דוח')}&unread=1&folder=drafts&page=2&perPage=20&tz=-300`);
  });

  it('the time zone is minutes east of UTC, in the browser\'s zone until the preference is known', () => {
    const at = new Date('2024-07-01T12:00:00Z');
    expect(timezoneOffset(at)).toBe(-at.getTimezoneOffset() || 0);
  });

  it('the time zone is the user\'s preference, not the browser\'s (a filter\'s day is the shown day)', () => {
    const summer = new Date('2024-07-01T12:00:00Z');
    const winter = new Date('2024-01-15T12:00:00Z');
    try {
      setDisplayTimeZone('Asia/Tokyo');
      expect(timezoneOffset(summer)).toBe(540);
      setDisplayTimeZone('America/New_York');
      expect(timezoneOffset(winter)).toBe(-300);
      expect(timezoneOffset(summer)).toBe(-240);
      setDisplayTimeZone('Asia/Jerusalem');
      expect(timezoneOffset(summer)).toBe(180);
      expect(timezoneOffset(winter)).toBe(120);
      setDisplayTimeZone('Asia/Kolkata');
      expect(timezoneOffset(winter)).toBe(330);
      setDisplayTimeZone('UTC');
      expect(Object.is(timezoneOffset(winter), 0)).toBe(true);
    } finally {
      setDisplayTimeZone(undefined);
    }
  });
});

describe('where a result opens', () => {
  it('maps the folder role to the inbox folder key', () => {
    expect(inboxFolderFor('inbox')).toBe('inbox');
    expect(inboxFolderFor('sent')).toBe('sent');
    expect(inboxFolderFor('drafts')).toBe('drafts');
    expect(inboxFolderFor('junk')).toBe('Spam');
    expect(inboxFolderFor('trash')).toBe('trash');
    expect(inboxFolderFor('archive')).toBe('Archive');
    expect(inboxFolderFor('')).toBe('inbox');
    expect(inboxFolderFor(undefined)).toBe('inbox');
    expect(openResultHref({ id: '12', folderRole: 'junk' })).toBe('/Inbox?folder=Spam&mail=12');
  });

  it('names the folder in Hebrew, or by its own name', () => {
    expect(resultFolderTitle({ folderRole: 'junk', folder: 'Junk' })).toBe('דואר זבל');
    expect(resultFolderTitle({ folderRole: 'archive', folder: 'Archive' })).toBe('ארכיון');
    expect(resultFolderTitle({ folderRole: '', folder: 'לקוחות' })).toBe('לקוחות');
  });

  it('counts the pages', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(45, 20)).toBe(3);
  });
});

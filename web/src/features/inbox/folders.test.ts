import { describe, expect, it } from 'vitest';
import { INBOX_FOLDERS, folderSource, normalizeFolder } from './folders';
import { toFolderCounts } from './useFolderCounts';

describe('folders', () => {
  it('maps every inbox folder to its thread listing, the virtual ones by their capitalised name', () => {
    expect(INBOX_FOLDERS.map((f) => [f, folderSource(f)])).toEqual([
      ['inbox', '/api/threads/inbox'],
      ['starred', '/api/threads/starred'],
      ['sent', '/api/threads/sent'],
      ['drafts', '/api/threads/drafts'],
      ['junk', '/api/threads/junk'],
      ['trash', '/api/threads/trash'],
      ['Archive', '/api/threads/Archive'],
      ['Spam', '/api/threads/Spam'],
      ['Promotions', '/api/threads/Promotions'],
      ['Updates', '/api/threads/Updates'],
    ]);
    expect(folderSource('pending-replies')).toBeNull();
    expect(folderSource(normalizeFolder('promotions')!)).toBe('/api/threads/Promotions');
  });

  it('turns the server counts into badges: inbox = needs reply + unread', () => {
    // Every other count is a badge as it is.
    const same = { needsReply: 3, starred: 1, processed: 2, spam: 4, advertisements: 6, info: 7, sent: 8, drafts: 9, trash: 10 };
    expect(toFolderCounts({ inbox: 40, unread: 5, ...same })).toEqual({ inbox: 8, ...same });
    expect(toFolderCounts(undefined)).toEqual({});
    expect(toFolderCounts({ sent: 2 }).inbox).toBeUndefined();
  });
});

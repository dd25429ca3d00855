import { describe, expect, it } from 'vitest';
import { INBOX_FOLDERS, folderSource, normalizeFolder } from './folders';
import { toFolderCounts } from './useFolderCounts';

describe('folders', () => {
  it('maps every inbox folder to its listing: real folders by role, the virtual ones by session', () => {
    expect(INBOX_FOLDERS.map((f) => [f, folderSource(f)])).toEqual([
      ['inbox', '/api/emails/inbox'],
      ['starred', '/api/emails/starred'],
      ['sent', '/api/emails/sent'],
      ['drafts', '/api/emails/drafts'],
      ['junk', '/api/emails/junk'],
      ['trash', '/api/emails/trash'],
      ['Archive', '/api/emails/session/Archive'],
      ['Spam', '/api/emails/session/Spam'],
      ['Promotions', '/api/emails/session/Promotions'],
      ['Updates', '/api/emails/session/Updates'],
    ]);
    expect(folderSource('pending-replies')).toBeNull();
    expect(folderSource(normalizeFolder('promotions')!)).toBe('/api/emails/session/Promotions');
  });

  it('turns the server counts into badges: inbox = needs reply + unread', () => {
    expect(
      toFolderCounts({
        inbox: 40,
        unread: 5,
        needsReply: 3,
        starred: 1,
        processed: 2,
        spam: 4,
        advertisements: 6,
        info: 7,
        sent: 8,
        drafts: 9,
        trash: 10,
      }),
    ).toEqual({
      inbox: 8,
      needsReply: 3,
      starred: 1,
      processed: 2,
      spam: 4,
      advertisements: 6,
      info: 7,
      sent: 8,
      drafts: 9,
      trash: 10,
    });
    expect(toFolderCounts(undefined)).toEqual({});
    expect(toFolderCounts({ sent: 2 }).inbox).toBeUndefined();
  });
});

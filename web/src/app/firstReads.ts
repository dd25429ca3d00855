// What the page a returning user lands on reads before its first row (issue 42), so main.tsx can
// start it at once (api/early.ts) and load the page's chunk beside it: for the inbox, the
// mailboxes (the page waits for them) and the folder's first page of threads, by the very paths
// the page's hooks ask for. Another page, or a folder of the user's own (`?box=`, known only
// from the folder tree), starts nothing but its chunk.

import { keys } from '../api/keys';
import { DEFAULT_FOLDER, folderSource, normalizeFolder } from '../features/inbox/folders';
import { PER_PAGE } from '../features/inbox/pageSize';
import { resolvePage, type PageName } from './routes';

/** The page of a location hash (`#/Inbox?folder=sent`), and the API paths it reads first. */
export function firstReads(hash: string): { page: PageName; paths: string[] } {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const page = resolvePage(path);
  if (page !== 'Inbox') return { page, paths: [] };
  const params = new URLSearchParams(search);
  const source = params.has('box') ? null : folderSource(normalizeFolder(params.get('folder')) ?? DEFAULT_FOLDER);
  const paths = [keys.mailAccounts()];
  if (source) paths.push(keys.threadPage(source, 1, PER_PAGE));
  return { page, paths };
}

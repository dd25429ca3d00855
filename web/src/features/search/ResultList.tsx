// The results: one button per mail with the sender, the folder it is in, a paperclip, the date,
// the subject with its status, and the body preview around the match with the hits marked.
// Unread mail is bold. The preview's parts are text (never HTML): a `<script>` in a mail stays
// letters on the screen. Choosing a result opens it in the inbox (folders.ts).

import { memo } from 'react';
import type { SearchResult, SnippetPart } from '../../api/search';
import { PaperclipIcon, StarIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { heSearchPage } from '../../i18n/searchPage';
import { formatDateTime } from '../../lib/dates';
import { labelText, shownPriority } from '../../lib/mailLabels';
import { resultFolderTitle } from './folders';

const t = heSearchPage;

/** Who the row names: the sender, or in Sent and Drafts the recipients (as the folder lists do). */
function who(r: SearchResult): string {
  if (r.folderRole === 'sent' || r.folderRole === 'drafts') {
    const to = (r.to ?? []).filter(Boolean);
    if (to.length) return `${he.mail.toPrefix} ${to.join(', ')}`;
  }
  return r.from_name?.trim() || r.from?.trim() || he.mail.unknownSender;
}

/** The status and a priority worth showing (urgent, high), as the inbox labels them. */
function labels(r: SearchResult): string[] {
  const out: string[] = [];
  if (r.status) out.push(r.status);
  const priority = shownPriority(r.priority);
  if (priority) out.push(priority);
  return out;
}

export function Snippet({ parts }: { parts: readonly SnippetPart[] }) {
  return (
    <span className="search-result__snippet" dir="auto" data-testid="search-result-snippet">
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i} className="search-result__hit">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}

const ResultRow = memo(function ResultRow({ result, onOpen }: { result: SearchResult; onOpen: (r: SearchResult) => void }) {
  const subject = result.subject?.trim() || he.mail.noSubject;
  const folder = resultFolderTitle(result);
  const snippet = Array.isArray(result.snippet) && result.snippet.length > 0
    ? result.snippet
    : result.preview
      ? [{ text: result.preview, hit: false }]
      : [];

  return (
    <li>
      <button
        type="button"
        className={`search-result${result.is_read ? '' : ' is-unread'}`}
        onClick={() => onOpen(result)}
        data-testid="search-result"
        data-id={result.id}
        data-read={result.is_read}
      >
        <span className="search-result__top">
          {result.is_starred && (
            <span className="search-result__star" title={t.starred} data-testid="search-result-starred">
              <StarIcon />
              <span className="visually-hidden">{t.starred}</span>
            </span>
          )}
          {/* The box keeps the page's direction so the name sits at the row's start; the name
              itself has its own direction. */}
          <span className="search-result__from" title={result.from || undefined}>
            <bdi dir="auto">{who(result)}</bdi>
          </span>
          {!result.is_read && <span className="visually-hidden">{he.mail.unread}</span>}
          {result.hasAttachments && (
            <span className="search-result__clip" title={he.mail.hasAttachments} data-testid="search-result-attachment">
              <PaperclipIcon />
              <span className="visually-hidden">{he.mail.hasAttachments}</span>
            </span>
          )}
          {/* dd/MM/yyyy HH:mm reads left to right even inside the Hebrew line. */}
          <time className="search-result__date" dateTime={result.date} dir="ltr">
            {formatDateTime(result.date)}
          </time>
        </span>
        <span className="search-result__line">
          <bdi className="search-result__subject" dir="auto">
            {subject}
          </bdi>
          {folder && (
            <span className="search-result__folder" title={t.inFolder(folder)} data-testid="search-result-folder">
              <bdi dir="auto">{folder}</bdi>
            </span>
          )}
          {labels(result).map((l) => (
            <span
              key={l}
              className={he.inbox.labels[l] ? `label-chip label-chip--${l}` : 'label-chip'}
              dir="auto"
              data-label={l}
              data-testid="search-result-label"
            >
              {labelText(l)}
            </span>
          ))}
          {(result.folderLabels ?? []).map((name) => (
            <span key={`folder:${name}`} className="label-chip" dir="auto" title={he.inbox.folderLabel(name)} data-testid="search-result-folder-label">
              {name}
            </span>
          ))}
        </span>
        {snippet.length > 0 && <Snippet parts={snippet} />}
      </button>
    </li>
  );
});

export function ResultList({ results, onOpen }: { results: readonly SearchResult[]; onOpen: (r: SearchResult) => void }) {
  return (
    <ul className="search-results panel" aria-label={t.resultsLabel} data-testid="search-results">
      {results.map((r) => (
        <ResultRow key={r.id} result={r} onOpen={onOpen} />
      ))}
    </ul>
  );
}

// The folder's mail as a list of rows, with "טען עוד" while the server has more.

import type { Email } from '../../api/types';
import { he } from '../../i18n/he';
import { MailRow } from './MailRow';

const t = he.mail;

export interface MailListProps {
  emails: Email[];
  selectedId: string | null;
  showRecipients: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (email: Email) => void;
  onToggleStar: (email: Email) => void;
}

export function MailList({
  emails,
  selectedId,
  showRecipients,
  hasMore,
  loadingMore,
  onLoadMore,
  onOpen,
  onToggleStar,
}: MailListProps) {
  return (
    <div className="mail-list-scroll">
      <ul className="mail-list" aria-label={t.listLabel} data-testid="mail-list">
        {emails.map((e) => (
          <MailRow
            key={e.id}
            email={e}
            selected={e.id === selectedId}
            showRecipients={showRecipients}
            onOpen={onOpen}
            onToggleStar={onToggleStar}
          />
        ))}
      </ul>
      {hasMore && (
        <div className="mail-list__more">
          <button
            type="button"
            className="button"
            disabled={loadingMore}
            onClick={onLoadMore}
            data-testid="mail-load-more"
          >
            {loadingMore ? t.loadingMore : t.loadMore}
          </button>
        </div>
      )}
    </div>
  );
}

// The head of a list page (contacts, rules, tasks): the page's title with what the list counts
// beside it, the page's actions at the far end, and the primary "add" button those pages share.

import type { ReactNode } from 'react';
import { PlusIcon } from './icons';

/** What the list counts, beside the title: its words, the number (as data-count) and a test id. */
export interface ListCount {
  text: string;
  n?: number;
  testId: string;
}

export function ListHeader({ titleId, title, count, children }: { titleId: string; title: ReactNode; count?: ListCount | false; children: ReactNode }) {
  return (
    <header className="list-header">
      <div className="list-header__title">
        <h2 id={titleId}>{title}</h2>
        {count && (
          <span className="list-header__count" data-testid={count.testId} data-count={count.n}>
            {count.text}
          </span>
        )}
      </div>
      {children}
    </header>
  );
}

/** The page's "add" button: a plus and the feature's word for adding one. */
export function AddButton({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <button type="button" className="button button--primary" onClick={onClick} data-testid={testId}>
      <PlusIcon />
      {label}
    </button>
  );
}

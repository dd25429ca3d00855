// The card the signed-out pages sit in (login, first-run setup): the brand, the page's title, then
// the page's own content.

import type { ReactNode } from 'react';
import { MailIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export function AuthCard({ title, wide = false, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className={wide ? 'auth-card auth-card--wide' : 'auth-card'}>
        <div className="auth-card__brand">
          <span className="brand-mark" aria-hidden="true">
            <MailIcon />
          </span>
          <span className="brand-name">{he.app.name}</span>
        </div>
        <h1 className="auth-card__title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

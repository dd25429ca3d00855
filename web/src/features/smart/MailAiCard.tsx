// The frame the summary and replies cards share: a title, the button that asks the AI about the
// chosen mail (busy label while it runs), the "choose a mail" hint, the busy line and the card's own
// error. The card's result goes in `children`.

import type { ReactNode } from 'react';
import type { Email } from '../../api/types';
import { SparkIcon } from '../../components/icons';
import { heSmart } from '../../i18n/smart';
import { SmartError } from './SmartError';

export interface MailAiCardProps {
  /** `summary` or `replies`: names the testids (`smart-<name>-card`, `-busy`) and the title id. */
  name: string;
  /** The card's strings: its title, its button, the line while the AI works, the failure's words. */
  text: { title: string; button: string; busy: string; failed: string };
  buttonTestId: string;
  /** The chosen mail, if any: the button asks about it. */
  mail: Email | null;
  /** The AI's work on that mail: under way, or its failure. */
  state: { busy: boolean; error?: unknown };
  onRun: (mail: Email) => void;
  children?: ReactNode;
}

export function MailAiCard({ name, text, buttonTestId, mail, state, onRun, children }: MailAiCardProps) {
  const titleId = `smart-${name}-title`;
  const { busy, error } = state;
  const hasMail = mail !== null;
  return (
    <section className="card smart-card" data-testid={`smart-${name}-card`} aria-busy={busy} aria-labelledby={titleId}>
      <header className="smart-card__header">
        <h3 className="card__subtitle" id={titleId}>
          {text.title}
        </h3>
        <button type="button" className="button button--primary" disabled={!hasMail || busy} onClick={() => mail && onRun(mail)} data-testid={buttonTestId}>
          <SparkIcon />
          {busy ? text.busy : text.button}
        </button>
      </header>
      {!hasMail && <p className="card__status">{heSmart.chooseMail}</p>}
      {busy && (
        <p className="card__status" role="status" data-testid={`smart-${name}-busy`}>
          {text.busy}
        </p>
      )}
      {error !== undefined && !busy && <SmartError error={error} fallback={text.failed} />}
      {children}
    </section>
  );
}

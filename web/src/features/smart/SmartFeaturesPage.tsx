// Smart features (spec 001 "Smart features page"): the 10 newest inbox mails first in reading
// order (the right column in RTL), and beside them the chosen mail's smart summary and suggested
// replies, smart compose, and productivity insights computed from the user's real mail.
// On narrow screens the columns stack. AI failures show in the card that failed.

import { useState } from 'react';
import type { Email } from '../../api/types';
import { he } from '../../i18n/he';
import { heSmart } from '../../i18n/smart';
import { ComposeCard } from './ComposeCard';
import { InsightsCard } from './InsightsCard';
import { MailPicker } from './MailPicker';
import { RepliesCard } from './RepliesCard';
import { SummaryCard } from './SummaryCard';

const t = heSmart;

function Chosen({ mail }: { mail: Email }) {
  return (
    <p className="smart-chosen" data-testid="smart-chosen" data-id={mail.id}>
      <span className="smart-chosen__label">{t.chosen}</span>{' '}
      <bdi dir="auto" className="smart-chosen__subject">
        {mail.subject?.trim() || he.mail.noSubject}
      </bdi>
      {' · '}
      <bdi dir="auto">{mail.from_name?.trim() || mail.from}</bdi>
    </p>
  );
}

export default function SmartFeaturesPage() {
  // The chosen mail itself, so a re-read list that no longer holds it does not empty the cards.
  const [chosen, setChosen] = useState<Email | null>(null);

  return (
    <section className="page-section smart-page" data-testid="smart-page">
      <div className="smart-layout">
        <aside className="smart-layout__list panel" aria-labelledby="smart-list-title">
          <h2 className="smart-layout__title" id="smart-list-title">
            {t.list.title}
          </h2>
          <MailPicker chosenId={chosen?.id ?? null} onChoose={setChosen} />
        </aside>
        <div className="smart-layout__panel">
          {chosen && <Chosen mail={chosen} />}
          <div className="smart-layout__mail-cards">
            <SummaryCard mail={chosen} />
            <RepliesCard mail={chosen} />
          </div>
          <ComposeCard />
          <InsightsCard />
        </div>
      </div>
    </section>
  );
}

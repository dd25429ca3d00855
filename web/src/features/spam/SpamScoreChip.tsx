// The reading pane's spam score (issue 18 `spamScore`): shown for mail judged spam or suspicious
// (or an advertisement with points), in points as the engine computed it when the mail arrived.

import type { Email } from '../../api/types';
import { heSpam } from '../../i18n/spam';
import '../../styles/spam.css';
import { formatScore } from './SpamActivityList';

export function SpamScoreChip({ email }: { email: Pick<Email, 'isSpam' | 'isAdvertisement' | 'spamScore'> }) {
  if (email.spamScore === null || email.spamScore === undefined) return null;
  if (!email.isSpam && !(email.isAdvertisement && email.spamScore > 0)) return null;
  return (
    <span className="label-chip spam-score-chip" title={heSpam.scoreTitle} data-testid="reading-spam-score">
      {heSpam.scoreChip(formatScore(email.spamScore))}
    </span>
  );
}

// What an empty Spam or Promotions folder adds (spec 000 §8: "no mails were found for the folder
// and spam detection may not be enabled"): with detection off, it says so and links to the
// settings; while that is unknown, that it may be off. With detection on, nothing.

import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { spamKeys, type SpamSettings } from '../../api/spam';
import { he } from '../../i18n/he';
import '../../styles/spam.css';

const t = he.mail;

export function SpamEmptyHint({ folderTitle }: { folderTitle: string }) {
  const { data } = useSWR<SpamSettings>(spamKeys.settings());
  if (data?.enabled) return null;
  return (
    <div className="spam-empty-hint" data-testid="spam-empty-hint" data-enabled={data ? 'false' : 'unknown'}>
      <p>{t.spamMaybeOff(folderTitle)}</p>
      {data && !data.enabled && (
        <>
          <p data-testid="spam-detection-off">{t.spamDetectionOff}</p>
          <Link className="button button--primary" to="/Settings" data-testid="spam-to-settings">
            {t.spamToSettings}
          </Link>
        </>
      )}
    </div>
  );
}

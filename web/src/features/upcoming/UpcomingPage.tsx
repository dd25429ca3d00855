// Screens whose own work has not landed yet (spec 000 §2, spec 001 §2): one placeholder that picks
// its icon and text from the table below; the layout shows the page title. Each keeps the
// data-testid `page-<PageName>Page` its own placeholder had, so tests and e2e find it.

import type { ComponentType } from 'react';
import type { PageName } from '../../app/routes';
import { EmptyState } from '../../components/EmptyState';
import { ContactsIcon, FilterIcon, LayoutIcon, TasksIcon } from '../../components/icons';
import { he } from '../../i18n/he';

/** The pages with a real screen of their own; every other page is an upcoming one. */
export type UpcomingPageName = Exclude<
  PageName,
  'Inbox' | 'Settings' | 'Compose' | 'PendingReplies' | 'SmartFeatures' | 'AITraining' | 'Search'
>;

interface Upcoming {
  Icon: ComponentType;
  text: string;
}

const UPCOMING: Record<UpcomingPageName, Upcoming> = {
  Contacts: { Icon: ContactsIcon, text: he.empty.contacts },
  Tasks: { Icon: TasksIcon, text: he.empty.tasks },
  Rules: { Icon: FilterIcon, text: he.empty.rules },
  BuilderPage: { Icon: LayoutIcon, text: he.empty.builder },
};

export default function UpcomingPage({ page }: { page: UpcomingPageName }) {
  const { Icon, text } = UPCOMING[page];
  // BuilderPage already ends in "Page"; the old placeholder's testid was page-BuilderPage.
  const testId = page.endsWith('Page') ? `page-${page}` : `page-${page}Page`;
  return (
    <section className="page-section" data-testid={testId}>
      <EmptyState icon={<Icon />}>
        <p>{text}</p>
      </EmptyState>
    </section>
  );
}

// Screens whose own work has not landed yet (spec 000 §2, spec 001 §2): one placeholder that picks
// its icon and text from the table below; the layout shows the page title. Each keeps the
// data-testid `page-<PageName>Page` its own placeholder had, so tests and e2e find it.

import type { ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PageName } from '../../app/routes';
import { EmptyState } from '../../components/EmptyState';
import {
  ContactsIcon,
  FilterIcon,
  LayoutIcon,
  SearchIcon,
  TasksIcon,
} from '../../components/icons';
import { he } from '../../i18n/he';

/** The pages with a real screen of their own; every other page is an upcoming one. */
export type UpcomingPageName = Exclude<PageName, 'Inbox' | 'Settings' | 'Compose' | 'PendingReplies' | 'SmartFeatures' | 'AITraining'>;

interface Upcoming {
  Icon: ComponentType;
  text: string;
  /** Shown above the text, e.g. what the user asked for. */
  Lead?: ComponentType;
}

/** The sidebar's search box lands on Search with `?q=`; echo it so the user sees it was received. */
function SearchQuery() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  if (!q) return null;
  return (
    <p className="empty-state__title" data-testid="search-query">
      {he.empty.searchQuery} <bdi dir="auto">{q}</bdi>
    </p>
  );
}

const UPCOMING: Record<UpcomingPageName, Upcoming> = {
  Search: { Icon: SearchIcon, text: he.empty.search, Lead: SearchQuery },
  Contacts: { Icon: ContactsIcon, text: he.empty.contacts },
  Tasks: { Icon: TasksIcon, text: he.empty.tasks },
  Rules: { Icon: FilterIcon, text: he.empty.rules },
  BuilderPage: { Icon: LayoutIcon, text: he.empty.builder },
};

export default function UpcomingPage({ page }: { page: UpcomingPageName }) {
  const { Icon, text, Lead } = UPCOMING[page];
  // BuilderPage already ends in "Page"; the old placeholder's testid was page-BuilderPage.
  const testId = page.endsWith('Page') ? `page-${page}` : `page-${page}Page`;
  return (
    <section className="page-section" data-testid={testId}>
      <EmptyState icon={<Icon />}>
        {Lead && <Lead />}
        <p>{text}</p>
      </EmptyState>
    </section>
  );
}

// Picks the page for the current path with resolvePage (last segment, case-insensitive) and loads
// its module lazily, so the first load carries only the shell. Pages without a screen of their own
// yet share one placeholder module.

import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../components/ErrorBoundary';
import type { UpcomingPageName } from '../features/upcoming/UpcomingPage';
import { he } from '../i18n/he';
import { resolvePage, type PageName } from './routes';

const REAL_PAGES: Record<Exclude<PageName, UpcomingPageName>, LazyExoticComponent<ComponentType>> = {
  Inbox: lazy(() => import('../features/inbox/InboxPage')),
  Settings: lazy(() => import('../features/settings/SettingsPage')),
  PendingReplies: lazy(() => import('../features/drafts/PendingRepliesPage')),
  Compose: lazy(() => import('../features/compose/ComposePage')),
  SmartFeatures: lazy(() => import('../features/smart/SmartFeaturesPage')),
  AITraining: lazy(() => import('../features/aitraining/AITrainingPage')),
  Search: lazy(() => import('../features/search/SearchPage')),
};

const Upcoming = lazy(() => import('../features/upcoming/UpcomingPage'));

function isReal(page: PageName): page is keyof typeof REAL_PAGES {
  return page in REAL_PAGES;
}

export function PageOutlet() {
  const { pathname } = useLocation();
  const page = resolvePage(pathname);
  let content;
  if (isReal(page)) {
    const Page = REAL_PAGES[page];
    content = <Page />;
  } else {
    content = <Upcoming page={page} />;
  }
  return (
    <ErrorBoundary resetKey={page}>
      <Suspense
        fallback={
          <p className="page-loading" role="status">
            {he.app.loading}
          </p>
        }
      >
        {content}
      </Suspense>
    </ErrorBoundary>
  );
}

// Picks the page for the current path with resolvePage (last segment, case-insensitive) and loads
// its module lazily, so the first load carries only the shell.

import { Suspense, lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { he } from '../i18n/he';
import { resolvePage, type PageName } from './routes';

type PageModule = Promise<{ default: ComponentType }>;

const LOADERS: Record<PageName, () => PageModule> = {
  Inbox: () => import('../features/inbox/InboxPage'),
  Settings: () => import('../features/settings/SettingsPage'),
  PendingReplies: () => import('../features/drafts/PendingRepliesPage'),
  Compose: () => import('../features/compose/ComposePage'),
  SmartFeatures: () => import('../features/smart/SmartFeaturesPage'),
  AITraining: () => import('../features/aitraining/AITrainingPage'),
  Search: () => import('../features/search/SearchPage'),
  Contacts: () => import('../features/contacts/ContactsPage'),
  Tasks: () => import('../features/tasks/TasksPage'),
  Subscriptions: () => import('../features/subscriptions/SubscriptionsPage'),
  Snoozed: () => import('../features/snooze/SnoozedPage'),
  Rules: () => import('../features/rules/RulesPage'),
  // Builder's React SDK is in this page's chunk only: the inbox bundle does not carry it.
  BuilderPage: () => import('../features/builder/BuilderPage'),
};

/** Pages whose module has arrived (by preloadPage or a first render): rendered without a suspense. */
const loaded: Partial<Record<PageName, ComponentType>> = {};

function load(page: PageName): PageModule {
  return LOADERS[page]().then((mod) => {
    loaded[page] = mod.default;
    return mod;
  });
}

/**
 * The page as a component. React.lazy suspends on its first render even when the module is
 * already there (it learns so only from the promise, a microtask later), and the inbox's rows
 * then waited for the fallback's commit and a second render (issue 42, the phone's first paint).
 * A page whose module has arrived renders at once; which of the two a mount uses is fixed for
 * that mount, so a page never remounts when its module arrives.
 */
function pageComponent(page: PageName): ComponentType {
  const Lazy: LazyExoticComponent<ComponentType> = lazy(() => load(page));
  function Page() {
    const [Ready] = useState(() => loaded[page]);
    return Ready ? <Ready /> : <Lazy />;
  }
  return Page;
}

const PAGES = Object.fromEntries(Object.keys(LOADERS).map((name) => [name, pageComponent(name as PageName)])) as Record<
  PageName,
  ComponentType
>;

/**
 * Loads a page's chunk ahead of its first render (main.tsx, for the page the app opens on): the
 * same import the lazy page makes, so it finds the module there. Resolves when it is there or
 * failed; a failure is left to the render, whose error boundary says so.
 */
export function preloadPage(page: PageName): Promise<void> {
  return load(page).then(
    () => undefined,
    () => undefined,
  );
}

export function PageOutlet() {
  const { pathname } = useLocation();
  const page = resolvePage(pathname);
  const Page = PAGES[page];
  return (
    <ErrorBoundary resetKey={page}>
      <Suspense
        fallback={
          <p className="page-loading" role="status">
            {he.app.loading}
          </p>
        }
      >
        <Page />
      </Suspense>
    </ErrorBoundary>
  );
}

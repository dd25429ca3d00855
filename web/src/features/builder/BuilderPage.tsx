// The page-builder page (spec 001 §2, §4, §8): the Builder.io entry of model 'page' for the
// current path (/builder shows /builder-demo), fetched by our server. States: loading; error (the
// spec's message, the API-key explanation, 'נסה שוב'); content; empty (a button opening the Builder
// editor in a new tab); and, when the server has no key, who can set it and where.
// `?builder.preview=page` shows the edit-mode badge (and asks past the server's cache). Form
// results show as toasts in the app's viewport, where they can be closed.

import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import useSWR from 'swr';
import { builderContentKey, type BuilderContentResponse } from '../../api/builder';
import { errorMessage, swrFetcher } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { TemplateIcon } from '../../components/icons';
import { useAuth } from '../../session/AuthProvider';
import { useToast } from '../../session/Toasts';
import { heBuilder } from '../../i18n/builder';
import { formContext } from './formContext';
import './builder.css';

const BuilderView = lazy(() => import('./BuilderView'));

const t = heBuilder;

/** The path whose entry the page shows: the route's path, with /builder as /builder-demo. */
export function builderPath(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path.toLowerCase() === '/builder' ? '/builder-demo' : path;
}

/** `builder.preview=page` in the route's query (inside the hash) or the page's own. */
export function isPreview(routeSearch: string, pageSearch: string): boolean {
  return [routeSearch, pageSearch].some((s) => new URLSearchParams(s).get('builder.preview') === 'page');
}

export default function BuilderPage() {
  const location = useLocation();
  const urlPath = builderPath(location.pathname);
  const preview = isPreview(location.search, window.location.search);
  const { user } = useAuth();
  const toast = useToast();
  const { data, error, isLoading, mutate } = useSWR<BuilderContentResponse>(
    builderContentKey(urlPath, preview),
    swrFetcher,
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );

  useEffect(() => {
    formContext.urlPath = urlPath;
    formContext.onResult = (ok, message) => (ok ? toast.success(message) : toast.error(message));
  }, [urlPath, toast]);

  const loading = (
    <p className="page-loading" role="status" data-testid="builder-loading">
      {t.loading}
    </p>
  );

  let body;
  if (error) {
    body = (
      <LoadError
        testId="builder-error"
        retryTestId="builder-retry"
        message={t.loadFailed(errorMessage(error))}
        retryLabel={t.retry}
        onRetry={() => void mutate()}
      >
        <p className="builder-page__explain">{t.loadFailedExplain}</p>
      </LoadError>
    );
  } else if (isLoading || !data) {
    body = loading;
  } else if (!data.configured) {
    body = (
      <div className="notice notice--info" role="note" data-testid="builder-not-configured">
        <p>
          <strong>{t.notConfiguredTitle}</strong>
        </p>
        <p>{user?.role === 'admin' ? t.notConfiguredAdmin : t.notConfiguredUser}</p>
      </div>
    );
  } else if (!data.entry) {
    body = (
      <EmptyState
        testId="builder-empty"
        icon={<TemplateIcon />}
        action={
          <button
            type="button"
            className="button button--primary"
            data-testid="builder-open-editor"
            onClick={() => window.open(data.editorUrl, '_blank', 'noopener,noreferrer')}
          >
            {t.openEditor}
          </button>
        }
      >
        <p>
          <strong>{t.emptyTitle}</strong>
        </p>
        <p>
          {t.emptyBefore}
          <bdi dir="ltr">{data.urlPath}</bdi>
          {t.emptyAfter}
        </p>
      </EmptyState>
    );
  } else {
    body = (
      <Suspense fallback={loading}>
        <div className="builder-page__content" data-testid="builder-content">
          <BuilderView apiKey={data.apiKey} entry={data.entry} urlPath={data.urlPath} />
        </div>
      </Suspense>
    );
  }

  return (
    <section className="builder-page" data-testid="page-BuilderPage">
      {preview && (
        <p className="builder-page__badge" data-testid="builder-preview-badge" title={t.previewBadgeHint}>
          {t.previewBadge}
        </p>
      )}
      {body}
    </section>
  );
}

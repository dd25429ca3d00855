// The page-builder page (docs/API.md "Builder"): the page's Builder.io entry through the server's
// cache, and a form block's submission, which the server delivers.

import { api } from './client';
import type { BuilderFormAnswer, BuilderFormRequest } from './generated';

export type { BuilderContentResponse, BuilderFormAnswer, BuilderFormField, BuilderFormRequest } from './generated';

/** The SWR key (and URL) of a path's entry; `preview` skips the server's cache. */
export const builderContentKey = (urlPath: string, preview: boolean) =>
  `/api/builder/content?urlPath=${encodeURIComponent(urlPath)}${preview ? '&preview=true' : ''}`;

export const submitBuilderForm = (req: BuilderFormRequest) =>
  api<BuilderFormAnswer>('/api/builder/form', { method: 'POST', body: req });

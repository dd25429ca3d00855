// The entry, rendered by Builder's own React SDK (@builder.io/react): its blocks (text, image,
// columns, section, video, form, personalization containers), with the SDK's lazy images and
// videos (aspect ratios 0.7041 / 0.7004, 60 s image timeout, 400 ms scroll throttle) and sections
// 1200 wide by default. This module is loaded only with this page.
//
// The SDK never fetches here: it gets the entry the server fetched (`content`, inline), tracking is
// off, and the parts of an entry the CSP would refuse are left out rather than tried: its custom
// JavaScript (`jsCode`, blocks' bindings, code and actions), HTTP requests made from the browser
// (`httpRequests`) and remote fonts (`customFonts`). Its custom CSS and its blocks' styles go into
// constructed stylesheets of this entry, scoped to its container and removed when it goes (see
// emotionSheet.ts and scopedCss.ts).

import { useLayoutEffect, useMemo, useState } from 'react';
import { BuilderComponent, builder } from '@builder.io/react';
import { CacheProvider } from '@emotion/core';
import { createBuilderSheets } from './emotionSheet';
import { withSectionDefaults, withoutCode, withoutPixel, type Block } from './entry';
import { registerFormBlock } from './FormBlock';

registerFormBlock();

let initializedKey: string | null = null;

function init(apiKey: string) {
  if (initializedKey === apiKey) return;
  builder.init(apiKey, false);
  builder.canTrack = false;
  initializedKey = apiKey;
}

type Entry = Record<string, unknown> & { id?: string; data?: Record<string, unknown> };

/** The entry's own CSS (`data.cssCode`). */
export function contentCss(entry: Entry): string {
  const css = entry.data?.cssCode;
  return typeof css === 'string' ? css : '';
}

/** The entry without what the CSP would refuse or what would reach Builder (its CSS goes into its own sheet). */
export function prepareEntry(entry: Entry): Entry {
  const data = { ...(entry.data ?? {}) };
  if (Array.isArray(data.blocks)) data.blocks = withoutPixel(withSectionDefaults(withoutCode(data.blocks)) as Block[]);
  delete data.cssCode;
  delete data.jsCode;
  delete data.httpRequests;
  delete data.customFonts;
  return { ...entry, data };
}

export default function BuilderView({ apiKey, entry, urlPath }: { apiKey: string; entry: Entry; urlPath: string }) {
  init(apiKey);
  // Targeting (personalization variants) reads the page's path; the app's routes are in the hash,
  // so the SDK's own guess (location.pathname) would be "/".
  // Set before the blocks render, and only when it changes (it notifies mounted containers).
  if (builder.getUserAttributes().urlPath !== urlPath) builder.setUserAttributes({ urlPath });
  const content = useMemo(() => prepareEntry(entry), [entry]);
  const [sheets] = useState(createBuilderSheets);
  // Adopted while the entry is shown, removed when it goes. The blocks render only once the
  // sheets are adopted (still before the first paint): the SDK's lazy images measure themselves
  // as they mount, and an unstyled page would put every image in view.
  const [adopted, setAdopted] = useState(false);
  useLayoutEffect(() => {
    sheets.attach();
    setAdopted(true);
    return sheets.detach;
  }, [sheets]);
  const css = contentCss(entry);
  useLayoutEffect(() => sheets.setContentCss(css), [sheets, css]);
  return (
    <div className={`builder-entry ${sheets.scope}`} data-testid="builder-entry">
      {adopted && (
        <CacheProvider value={sheets.cache}>
          <BuilderComponent model="page" content={content as never} inlineContent />
        </CacheProvider>
      )}
    </div>
  );
}

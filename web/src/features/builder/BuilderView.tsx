// The entry, rendered by Builder's own React SDK (@builder.io/react): its blocks (text, image,
// columns, section, video, form, personalization containers), with the SDK's lazy images and
// videos (aspect ratios 0.7041 / 0.7004, 60 s image timeout, 400 ms scroll throttle) and sections
// 1200 wide by default. This module is loaded only with this page.
//
// The SDK never fetches here: it gets the entry the server fetched (`content`, inline), tracking is
// off, and the parts of an entry the CSP would refuse are left out rather than tried: its custom
// JavaScript (`jsCode`, blocks' bindings, code and actions), HTTP requests made from the browser
// (`httpRequests`) and remote fonts (`customFonts`). Its custom CSS goes into a constructed stylesheet (see emotionSheet.ts).

import { useMemo } from 'react';
import { BuilderComponent, builder } from '@builder.io/react';
import { CacheProvider } from '@emotion/core';
import { applyContentCss, builderEmotionCache } from './emotionSheet';
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

/** The entry without what the CSP would refuse or what would reach Builder; its CSS applied. */
export function prepareEntry(entry: Entry): Entry {
  const data = { ...(entry.data ?? {}) };
  if (Array.isArray(data.blocks)) data.blocks = withoutPixel(withSectionDefaults(withoutCode(data.blocks)) as Block[]);
  const css = typeof data.cssCode === 'string' ? data.cssCode : '';
  applyContentCss(String(entry.id ?? ''), css);
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
  return (
    <CacheProvider value={builderEmotionCache()}>
      <BuilderComponent model="page" content={content as never} inlineContent />
    </CacheProvider>
  );
}

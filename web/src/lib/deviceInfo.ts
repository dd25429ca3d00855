// What the device-info card reads about this browser: the platform, the browser and its major
// version from the user agent (or the platform from User-Agent Client Hints where the browser
// has them), and the UI scale factors in use from the CSS custom properties session/scale.ts sets.
// Pure functions, unit-tested against real user-agent strings (the device-info card and the push
// card's device names use them).

export type Platform = 'Windows' | 'macOS' | 'Linux' | 'Android' | 'iOS' | 'ChromeOS';
export type BrowserName = 'Edge' | 'Opera' | 'Firefox' | 'Chrome' | 'Safari';

export interface Browser {
  name: BrowserName;
  /** The major version, when the user agent gives one. */
  version: number | null;
}

/**
 * The platform from a user-agent string. iPadOS asks for desktop sites with a Mac user agent; a
 * "Mac" with a touch screen (`maxTouchPoints` > 1) is an iPad.
 */
export function platformFromUserAgent(ua: string, maxTouchPoints = 0): Platform | null {
  if (/\b(iPhone|iPad|iPod)\b/.test(ua)) return 'iOS';
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return maxTouchPoints > 1 ? 'iOS' : 'macOS';
  if (/\bLinux\b|\bX11\b/.test(ua)) return 'Linux';
  return null;
}

const HINTS: Record<string, Platform> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  android: 'Android',
  ios: 'iOS',
  chromeos: 'ChromeOS',
  chromiumos: 'ChromeOS',
};

/** `navigator.userAgentData.platform` ("macOS", "Chrome OS", …) as one of ours; null when unknown. */
export function platformFromHint(hint: string | undefined | null): Platform | null {
  if (!hint) return null;
  return HINTS[hint.toLowerCase().replace(/\s+/g, '')] ?? null;
}

/** The hint when it names a platform, else the user agent. */
export function detectPlatform(ua: string, hint?: string | null, maxTouchPoints = 0): Platform | null {
  return platformFromHint(hint) ?? platformFromUserAgent(ua, maxTouchPoints);
}

// Order matters: Edge and Opera also say "Chrome", and every browser on iOS says "Safari".
const BROWSERS: readonly [BrowserName, RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|OPX|OPT)\/(\d+)|\bOpera\b(?:[/ ](\d+))?/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|HeadlessChrome|CriOS|Chromium)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+).*\bSafari\/|\bSafari\//],
];

export function browserFromUserAgent(ua: string): Browser | null {
  for (const [name, re] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      const digits = m.slice(1).find((g) => g !== undefined);
      return { name, version: digits ? Number(digits) : null };
    }
  }
  return null;
}

export interface UiScale {
  app: number | null;
  font: number | null;
  icon: number | null;
}

/** A scale factor as a CSS custom property holds it; null when unset or not a positive number. */
export function parseScale(raw: string | null | undefined): number | null {
  const v = (raw ?? '').trim();
  if (!v) return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** --app-scale, --font-scale and --icon-scale as they apply to `el` (the root by default). */
export function readUiScale(el: Element = document.documentElement): UiScale {
  const style = getComputedStyle(el);
  return {
    app: parseScale(style.getPropertyValue('--app-scale')),
    font: parseScale(style.getPropertyValue('--font-scale')),
    icon: parseScale(style.getPropertyValue('--icon-scale')),
  };
}

/** 0.85 → "85%". */
export function percent(n: number): string {
  return `${Math.round(n * 100)}%`;
}

/** 2 → "2", 1.5 → "1.5", 1.3333 → "1.33". */
export function formatRatio(n: number): string {
  return String(Math.round(n * 100) / 100);
}
